extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and newlines.
    public var trimmingSpaces: String {
        self[...].drop(while: \.isWhitespace).trimmingTrailingSpaces
    }

    /// The text without trailing spaces, tabs and newlines (leading ones can place what follows).
    public var trimmingTrailingSpaces: String {
        String(self[...].reversed().drop(while: \.isWhitespace).reversed())
    }
}
