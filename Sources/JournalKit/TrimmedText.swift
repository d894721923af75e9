extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and newlines.
    public var trimmingSpaces: String {
        self[...].drop(while: \.isWhitespace).trimmingTrailingSpaces
    }

    /// The text without trailing spaces, tabs and newlines (leading ones can place what follows).
    /// Walked back by index: a String made of a reversed sequence looks its type's conformances up at
    /// run time, about 0.7 M instructions for the first setting `journal status` reads.
    public var trimmingTrailingSpaces: String {
        let text = self[...]
        var end = text.endIndex
        while end > text.startIndex {
            let before = text.index(before: end)
            guard text[before].isWhitespace else { break }
            end = before
        }
        return String(text[..<end])
    }
}
