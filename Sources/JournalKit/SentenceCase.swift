extension StringProtocol {
    /// The text begun as a sentence: its first letter upper case ("received 1 change" becomes
    /// "Received 1 change"), the rest as it is. The rest is copied in one piece: appended as a
    /// sequence of characters, it was read one grapheme at a time, about 24,000 instructions for a
    /// sync report's first sentence, which a daemon makes at every ring.
    public var sentenceCased: String { prefix(1).uppercased() + String(dropFirst()) }
}
