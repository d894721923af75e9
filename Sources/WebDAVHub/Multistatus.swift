import HTTPHubSupport
/// One resource a PROPFIND listed: a member of the listed collection, or the collection itself.
struct DAVEntry: Sendable, Equatable {
    /// The href's path, decoded, as components.
    let components: [String]
    let isCollection: Bool
    /// The ETag, its weak mark (`W/`) taken off: Apache marks one weak for the second after a write,
    /// and the same file must not seem changed when the mark goes.
    let etag: String?
    /// True when the server marked the ETag weak: changed within its clock's tick.
    let weakETag: Bool
    /// `getlastmodified`, as the server wrote it (an HTTP date, to the second).
    let lastModified: String?
    let length: Int64?
    /// The status of the response as a whole, where the server gave one instead of properties: what
    /// a method on many resources (MKCOL, PUT, DELETE under a lock) did to this one ("423").
    var status: Int? = nil

    var name: String { components.last ?? "" }

    /// What tells whether the resource changed: its ETag, or (nginx gives none) its size and time.
    var fingerprint: String { etag ?? "\(length ?? -1)@\(lastModified ?? "")" }
}

/// A 207 Multi-Status answer to PROPFIND (RFC 4918, section 14.16), read for what a listing needs:
/// each `response`'s `href` and, from its `propstat`s whose status is 200, `resourcetype`, `getetag`,
/// `getlastmodified` and `getcontentlength`. Elements are matched by namespace and local name, never by
/// prefix (Apache says `lp1:`, nginx `D:`, sabre `d:`). The answer is the server's: anything it holds
/// that is not well formed is refused as a whole, and nothing in it is followed or fetched.
struct Multistatus {
    typealias Malformed = XMLMalformed

    static let davNamespace = "DAV:"
    /// Deeper nesting than any listing has: refused, so a crafted answer costs no more than its size.
    static let deepest = 64
    /// More namespaces in scope at once than any listing has (each element's scope is a copy of its
    /// parent's, so their number bounds what an element costs; Apache declares the same two again on
    /// every response): refused.
    static let mostNamespaces = 64
    /// More components in an href than any hub's path has: refused.
    static let longestPath = 64

    static func entries(_ bytes: [UInt8]) throws(Malformed) -> [DAVEntry] {
        var reader = XMLReader(bytes)
        var namespaces: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]
        var path: [String] = []  // "DAV:|local" of each open element
        var entries: [DAVEntry] = []
        var href = ""
        var collection = false, etag: String?, modified: String?, length: Int64?
        var propCollection = false, propETag: String?, propModified: String?, propLength: Int64?
        var status = ""
        var responseStatus: Int?
        var text = ""
        var sawMultistatus = false

        func resolve(_ qualified: Substring, in scope: [String: String], isAttribute: Bool = false) -> String {
            if let colon = qualified.firstIndex(of: ":") {
                let prefix = String(qualified[..<colon])
                return (scope[prefix] ?? "?") + "|" + qualified[qualified.index(after: colon)...]
            }
            return (isAttribute ? "" : scope[""] ?? "") + "|" + qualified
        }
        func dav(_ local: String) -> String { davNamespace + "|" + local }

        while let event = try reader.next() {
            switch event {
            case .start(let name, let attributes, let empty):
                var scope = namespaces.last ?? [:]
                for (key, value) in attributes where key == "xmlns" || key.hasPrefix("xmlns:") {
                    scope[key == "xmlns" ? "" : String(key.dropFirst(6))] = value
                }
                guard scope.count <= mostNamespaces else { throw Malformed(reason: "it has more than \(mostNamespaces) namespaces in scope") }
                let element = resolve(name, in: scope)
                if path.isEmpty {
                    guard element == dav("multistatus") else { throw Malformed(reason: "it is not a multistatus answer") }
                    sawMultistatus = true
                }
                guard path.count < deepest else { throw Malformed(reason: "it nests deeper than \(deepest) elements") }
                switch element {
                case dav("response"):
                    href = ""; collection = false; etag = nil; modified = nil; length = nil; responseStatus = nil
                case dav("propstat"):
                    propCollection = false; propETag = nil; propModified = nil; propLength = nil; status = ""
                case dav("collection") where path.last == dav("resourcetype"):
                    propCollection = true
                default: break
                }
                text = ""
                if !empty {
                    namespaces.append(scope)
                    path.append(element)
                }
            case .text(let piece):
                if text.utf8.count < 16 * 1024 { text += piece }
            case .end(let name):
                guard let element = path.last, resolve(name, in: namespaces.last ?? [:]) == element else {
                    throw Malformed(reason: "an element </\(name)> closes another")
                }
                path.removeLast()
                namespaces.removeLast()
                let value = text.trimmingWhitespace
                switch element {
                case dav("href") where path.last == dav("response"): href = value
                case dav("status") where path.last == dav("propstat"): status = value
                case dav("status") where path.last == dav("response"):
                    responseStatus = value.split(separator: " ").dropFirst().first.flatMap { Int($0) }
                case dav("getetag"): propETag = value.isEmpty ? nil : value
                case dav("getlastmodified"): propModified = value.isEmpty ? nil : value
                case dav("getcontentlength"): propLength = Int64(value)
                case dav("propstat"):
                    // Properties under another status (404: the server has none) are not the resource's.
                    if status.split(separator: " ").dropFirst().first == "200" {
                        collection = collection || propCollection
                        etag = propETag ?? etag
                        modified = propModified ?? modified
                        length = propLength ?? length
                    }
                case dav("response"):
                    guard !href.isEmpty, let components = DAVPath.components(ofHref: href) else { break }
                    guard components.count <= longestPath else { throw Malformed(reason: "an href has more than \(longestPath) parts") }
                    var weak = false
                    var tag = etag
                    if let value = tag, value.hasPrefix("W/") {
                        weak = true
                        tag = String(value.dropFirst(2))
                    }
                    entries.append(DAVEntry(
                        components: components, isCollection: collection, etag: tag, weakETag: weak, lastModified: modified, length: length,
                        status: responseStatus))
                default: break
                }
                text = ""
            }
        }
        guard sawMultistatus, path.isEmpty else { throw Malformed(reason: "it ends before its multistatus element does") }
        return entries
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
