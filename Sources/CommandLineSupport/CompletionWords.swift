import JournalKit

/// What the shells complete from the journal itself (drink names and aliases, drinks' ids, device
/// names), read by `CompletionSource`. swift-argument-parser calls these with the words of the
/// command line, the index of the word completed, and its start.
public enum CompletionWords {
    /// Every drink's name and alias, the catalog's and the person's own.
    @Sendable public static func drinks(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let catalog = DrinkCatalog.builtIn.kinds.flatMap { [$0.name] + $0.aliases }
        return matching(catalog + journalWords(.ownDrinkNames, words), prefix)
    }

    /// The drinks of one's own (`drinks rm`).
    @Sendable public static func ownDrinks(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(journalWords(.ownDrinkNames, words), prefix)
    }

    /// The ids of the latest drinks, as `list` shows them (`rm`, `edit`).
    @Sendable public static func drinkIDs(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(journalWords(.latestDrinkIDs, words), prefix)
    }

    /// The names of the hub's devices this journal knows (`sync revoke`, `--keep`).
    @Sendable public static func deviceNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(journalWords(.deviceNames, words), prefix)
    }

    private static func matching(_ candidates: [String], _ prefix: String) -> [String] {
        let lowered = prefix.lowercased()
        var seen = Set<String>()
        return candidates.filter { isPlainWord($0) && $0.lowercased().hasPrefix(lowered) && seen.insert($0).inserted }.sorted()
    }

    /// A word every shell's completion takes as it is: letters, marks and digits of any script, and
    /// `-`, `_`, `.`, `+`, `:`, `@`. bash hands the words to `compgen -W`, which expands `$(...)`,
    /// backquotes, `$VAR` and `~` in them: a device name another member chose could otherwise run a
    /// command in the shell of whoever presses Tab. A name with a space, a quote or such is typed.
    static func isPlainWord(_ word: String) -> Bool {
        !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark, .spacingMark,
                .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                return true
            default:
                return "-_.+:@".unicodeScalars.contains(scalar)
            }
        }
    }

    /// `source`'s words, from the journal the command line names (`--db`), or the default one.
    private static func journalWords(_ source: CompletionSource, _ words: [String]) -> [String] {
        var explicit: String?
        for (index, word) in words.enumerated() {
            if word == "--db", index + 1 < words.count { explicit = words[index + 1] }
            if word.hasPrefix("--db=") { explicit = String(word.dropFirst(5)) }
        }
        guard let path = try? JournalPaths.database(explicit: explicit) else { return [] }
        return source.words(inJournalAt: path)
    }
}
