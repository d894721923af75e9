/// `journal add espresso 8:00`, `journal add tea yesterday 9am`: the words after a drink's name that
/// read as a time say when it was had, as `--at` would.
enum TrailingTime {
    /// The ways to cut `name`'s words into a drink's name and a time's words, the longest name first
    /// (a drink of one's own may be called "tea 2"); none for a single word.
    static func cuts(of name: String) -> [(drink: String, time: String)] {
        let words = name.split(separator: " ")
        guard words.count >= 2 else { return [] }
        return stride(from: words.count - 1, through: 1, by: -1).map { cut in
            (words[..<cut].joined(separator: " "), words[cut...].joined(separator: " "))
        }
    }
}
