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

    /// The settings' names (`config`).
    @Sendable public static func settings(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(JournalSettings.Key.allCases.map(\.rawValue), prefix)
    }

    /// The profile's settings (`profile`).
    @Sendable public static func profileSettings(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(JournalSettings.Key.profile.map(\.rawValue), prefix)
    }

    /// A setting's values where they are few: the conditions after `conditions` (the one being typed
    /// after the commas of those before it), the models after `model`; nothing else.
    @Sendable public static func settingValues(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let setting = index > 0 && index - 1 < words.count ? words[index - 1].lowercased() : ""
        switch setting {
        case JournalSettings.Key.conditions.rawValue:
            let typed = prefix.split(separator: ",", omittingEmptySubsequences: false)
            let before = typed.dropLast().joined(separator: ",")
            let chosen = Set(typed.dropLast().map(String.init))
            let names = Condition.allCases.map(\.rawValue).filter { !chosen.contains($0) }
            // A comma is a word's part to every shell (bash's compgen expands none in it).
            return matching(names.map { before.isEmpty ? $0 : before + "," + $0 }, prefix, alsoAllowing: ",")
        case JournalSettings.Key.model.rawValue:
            return matching(CaffeineModel.Kind.allCases.map(\.rawValue), prefix)
        default:
            return []
        }
    }

    private static func matching(_ candidates: [String], _ prefix: String, alsoAllowing allowed: Character? = nil) -> [String] {
        let lowered = prefix.lowercased()
        var seen = Set<String>()
        return candidates.filter { candidate in
            isPlainWord(allowed.map { mark in candidate.filter { $0 != mark } } ?? candidate)
                && candidate.lowercased().hasPrefix(lowered) && seen.insert(candidate).inserted
        }.sorted()
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
