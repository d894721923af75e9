import JournalKit

/// How a person names a hub: a URL (`postgresql://alice@db/journal`, `file:///srv/hub`), or a path,
/// which is a folder's.
public enum HubName {
    /// The scheme a name with none has: a path is a folder.
    public static let pathScheme = "file"

    /// The scheme of `name` when it starts as a URL does (RFC 3986: a letter, then letters, digits,
    /// "+", "-" or ".", then "://"; or "file:/", RFC 8089's shortest file URL), lowercased; nil for a
    /// path. A folder whose name looks like a URL is named as "./" and its name.
    public static func scheme(of name: String) -> String? {
        if name.prefix(6).lowercased() == "file:/" { return "file" }
        guard let colon = name.firstIndex(of: ":"), name[colon...].hasPrefix("://") else { return nil }
        let scheme = name[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
            scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return scheme.lowercased()
    }

    /// True when `name`, with no scheme, starts as `key=value` words do (libpq's `host=db dbname=j`):
    /// taken for a path, it would make a hub in a folder of that name in the working folder.
    public static func readsAsKeywords(_ name: String) -> Bool {
        guard scheme(of: name) == nil, let equals = name.firstIndex(of: "=") else { return false }
        let key = name[..<equals].drop { $0 == " " }
        return !key.isEmpty && key.unicodeScalars.allSatisfy { $0.isASCIILetter || $0 == "_" }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

/// A hub named in a way no kind this program reaches takes.
public enum HubNameError: JournalFailure, Equatable {
    /// A URL of a scheme no driver has.
    case unknownScheme(scheme: String, name: String, known: [String])
    /// No name at all (a variable left unset).
    case empty
    /// A `file:` URL that names no folder of this machine.
    case notALocalFolder(name: String)
    /// A `file:` URL with no path, or with more than one (a query, a fragment).
    case notAFolderURL(name: String, problem: String)
    /// `key=value` words where a path or URL was expected.
    case keywordsForAPath(name: String)

    public var kind: FailureKind { .usage }

    public var description: String {
        switch self {
        case .unknownScheme(let scheme, let name, let known):
            return "\(TerminalText.quoted(name)) names a hub of a kind this journal does not reach (\(TerminalText.escaped(scheme)):// ). "
                + "It reaches " + known.map { $0 + "://" }.joined(separator: ", ")
                + ", and a folder by its path (a folder named like a URL: ./ and its name)."
        case .empty:
            return "the hub's name is empty (a variable left unset?): give a folder's path or a URL."
        case .notAFolderURL(let name, let problem):
            return "\(TerminalText.quoted(name)) names no folder: it \(problem). Write file:///PATH."
        case .notALocalFolder(let name):
            return "\(TerminalText.quoted(name)) names a folder on another machine: a file URL names one on this machine "
                + "(file:///PATH). Mount the other machine's folder here and name that."
        case .keywordsForAPath(let name):
            return "\(TerminalText.quoted(name)) reads as a server's key=value words, not as a hub's place: name a server by its "
                + "URL, and a folder of that name as ./ and its name."
        }
    }
}
