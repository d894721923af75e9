extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and newlines.
    public var trimmingSpaces: String {
        let characters = self[...].drop(while: \.isWhitespace)
        return String(characters.reversed().drop(while: \.isWhitespace).reversed())
    }
}
