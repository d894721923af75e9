import HTTPHubSupport

/// What an S3 store answers in XML, read for what a hub needs: a `ListBucketResult`'s objects, and an
/// `Error`'s code. Elements are matched by local name (AWS declares its namespace, some stores none);
/// anything not well formed is refused as a whole, never read as an empty listing.
enum S3Answers {
    struct Listing: Equatable {
        var objects: [(key: String, size: Int64, etag: String)] = []
        var truncated = false
        var continuation: String?

        static func == (one: Listing, two: Listing) -> Bool {
            one.truncated == two.truncated && one.continuation == two.continuation
                && one.objects.elementsEqual(two.objects) { $0.key == $1.key && $0.size == $1.size && $0.etag == $1.etag }
        }
    }

    /// More objects in one answer than a store sends for the 1,000 asked for: refused.
    static let mostObjects = 1000

    static func listing(_ bytes: [UInt8]) throws(XMLMalformed) -> Listing {
        var listing = Listing()
        var path: [Substring] = []
        var text = ""
        var object: (key: String?, size: Int64?, etag: String?) = (nil, nil, nil)
        var reader = XMLReader(bytes)
        while let event = try reader.next() {
            switch event {
            case .start(let name, _, let empty):
                guard path.count < 8 else { throw XMLMalformed(reason: "it nests deeper than 8 elements") }
                if path.isEmpty, localName(name) != "ListBucketResult" { throw XMLMalformed(reason: "it is not a listing") }
                if !empty { path.append(localName(name)) }
                text = ""
            case .text(let value):
                text += value
            case .end(let name):
                guard path.last == localName(name) else { throw XMLMalformed(reason: "an element </\(name)> closes another") }
                switch (path.count, path.last ?? "") {
                case (3, "Key") where path[1] == "Contents": object.key = text
                case (3, "Size") where path[1] == "Contents": object.size = Int64(text)
                case (3, "ETag") where path[1] == "Contents": object.etag = text
                case (2, "Contents"):
                    guard let key = object.key, let size = object.size, size >= 0, let etag = object.etag else {
                        throw XMLMalformed(reason: "an object lacks its key, size or ETag")
                    }
                    guard listing.objects.count < mostObjects else { throw XMLMalformed(reason: "it lists more than \(mostObjects) objects") }
                    listing.objects.append((key, size, etag))
                    object = (nil, nil, nil)
                case (2, "IsTruncated"): listing.truncated = text == "true"
                case (2, "NextContinuationToken"): listing.continuation = text
                default: break
                }
                path.removeLast()
                text = ""
            }
        }
        guard path.isEmpty else { throw XMLMalformed(reason: "it ends before its listing does") }
        return listing
    }

    /// An error answer's `Code` (and `Region`, for a bucket in another one); nil for a body that is
    /// no S3 error (a proxy's page, nothing).
    static func error(_ bytes: [UInt8]) -> (code: String, region: String?)? {
        var reader = XMLReader(bytes)
        var path: [Substring] = []
        var text = ""
        var code: String?, region: String?
        while let event = try? reader.next() {
            switch event {
            case .start(let name, _, let empty):
                guard path.count < 8 else { return nil }
                if !empty { path.append(localName(name)) }
                text = ""
            case .text(let value): text += value
            case .end:
                // The server's words go into messages: letters, digits and hyphens alone.
                let word = String(text.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }.prefix(64))
                if path == ["Error", "Code"] { code = word }
                if path == ["Error", "Region"] { region = word }
                if !path.isEmpty { path.removeLast() }
                text = ""
            }
        }
        return code.map { ($0, region) }
    }

    private static func localName(_ name: Substring) -> Substring {
        name.lastIndex(of: ":").map { name[name.index(after: $0)...] } ?? name
    }
}
