extension [String] {
    /// The strings with `separator` between them, as `joined(separator:)` gives them. Not that one on
    /// the commands' way: the standard library's is generic and not inlinable, so it runs
    /// unspecialized, and its first call in a process has the runtime look up the sequence's
    /// associated types by their mangled names, 0.2 M instructions (a twentieth of `journal add`).
    /// Every call here is to a concrete `String` function.
    public func concatenated(separator: String) -> String {
        var text = ""
        for (index, item) in enumerated() {
            if index > 0 { text += separator }
            text += item
        }
        return text
    }
}

extension [Substring] {
    /// The substrings with `separator` between them (`[String].concatenated(separator:)` says why).
    public func concatenated(separator: String) -> String { map { String($0) }.concatenated(separator: separator) }
}
