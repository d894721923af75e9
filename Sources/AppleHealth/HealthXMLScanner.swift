import JournalKit

/// Reads an Apple Health export's XML a chunk at a time, byte by byte, in one pass and a bounded amount
/// of memory, and tells its reader the elements it asks for (`HealthXMLEvent`).
///
/// It is our own, not libxml2 (FoundationXML): libxml2 crashed in its DTD callbacks, expanded the
/// entities a DTD declares, transcoded whatever encoding a file declared, and brought ICU with it.
/// Here no DTD is ever read, by construction: a document type declaration is passed over as one
/// opaque piece (its quoted strings, comments and processing instructions respected, so nothing in
/// them ends it early), and the only references known are those XML defines without one. Input must
/// be UTF-8 (`XMLDocumentStart`). It checks what makes a document well-formed, enough that garbage is
/// refused at its line: one root, matching tags, quoted attributes without `<`, no attribute twice.
/// Health writes control characters (vertical tabs in device names) that XML forbids: they are taken
/// as spaces, as every earlier importer did; a zero byte is refused.
struct HealthXMLScanner {
    /// Deeper nesting is refused: a Health export is four deep.
    static let maximumDepth = 64
    /// A longer element or attribute name is refused.
    static let maximumNameLength = 256
    /// More attributes on one element are refused: a record has a dozen.
    static let maximumAttributes = 256
    /// What may come before the root element (the declarations) or after it: more is refused, so an
    /// endless prolog is not read to its end.
    static let outsideRootLimit = 1 << 20

    enum State: UInt8 {
        case misc, text, markup, bang, keyword
        case comment, commentDash, commentDashes, cdata, cdataBracket, cdataBrackets, piTarget, pi, piQuestion
        case doctype, subset, subsetMarkup, subsetBang, subsetDeclaration, afterSubset, quoted
        case tagName, inTag, attributeName, beforeEquals, beforeValue, value, afterValue, emptyTagEnd
        case endName, afterEndName, reference
    }

    /// Where in the document the scanner is, which decides what markup may come.
    enum Place { case prolog, content, epilog, subset }

    var state = State.misc
    var place = Place.prolog
    /// The line of the byte being read: a message's line.
    private(set) var line = 1
    /// The first kilobyte, gathered before anything is scanned; nil once it was checked.
    private var head: [UInt8]? = []
    /// True once the first kilobyte was scanned: what is wrong after it may be damage on the way.
    private(set) var isPastStart = false
    private var utf8 = UTF8Validator()
    /// Bytes read outside the root element, before it or after it.
    var outsideRoot = 0
    /// True until the first markup: where the XML declaration may be.
    private var atDocumentStart = true
    var declarationAllowed = false
    var sawDoctype = false
    /// The line of the last `<`.
    var markupLine = 1

    /// The open elements: their names one after the other, where each ends, and their kinds.
    var openNames: [UInt8] = []
    var openEnds: [Int] = []
    var openKinds: [HealthXMLElement.Kind] = []

    /// The start tag being read: its name, kind, attribute names (to refuse one given twice) and the
    /// attributes kept of it.
    var elementName: [UInt8] = []
    var elementKind = HealthXMLElement.Kind.other
    var attributeNames: [UInt8] = []
    /// Where each attribute name starts in `attributeNames`.
    var attributeStarts: [Int] = []
    var attributes = HealthXMLAttributes()
    /// The attribute whose value is being read, when it is one kept; where its value starts in the
    /// kept bytes, and how long it is so far.
    var keptAttribute: HealthXMLAttributes.Name?
    var valueStart = 0
    var valueLength = 0

    /// A name being read: an end tag's, or a processing instruction's target.
    var name: [UInt8] = []
    /// The quote that ends the quoted string or attribute value being read, and where to go after it.
    var quote: UInt8 = 0
    var afterQuote = State.misc
    /// A keyword being matched after `<!` ("-", "CDATA[", "OCTYPE"), how far, and where it leads.
    var keyword: [UInt8] = []
    var keywordMatched = 0
    var afterKeyword = State.misc
    /// The reference being read (between `&` and `;`), and where it was met: `.value` or `.text`.
    var reference: [UInt8] = []
    var afterReference = State.text

    init() {}

    /// Scans `chunk`, the next bytes of the document, telling `handler` what it asks for.
    mutating func scan(_ chunk: UnsafeRawBufferPointer, _ handler: (HealthXMLEvent) throws -> Void) throws {
        guard var gathered = head else { return try run(chunk, handler) }
        let taken = min(chunk.count, XMLDocumentStart.length - gathered.count)
        gathered.append(contentsOf: chunk[0..<taken])
        guard gathered.count == XMLDocumentStart.length else {
            head = gathered
            return
        }
        head = nil
        let bom = try XMLDocumentStart.check(gathered, isWhole: false)
        try gathered.withUnsafeBytes { try run(UnsafeRawBufferPointer(rebasing: $0[bom...]), handler) }
        isPastStart = true
        try run(UnsafeRawBufferPointer(rebasing: chunk[taken...]), handler)
    }

    /// Ends the document: it must have ended where a document can.
    mutating func finish(_ handler: (HealthXMLEvent) throws -> Void) throws {
        if let gathered = head {
            head = nil
            let bom = try XMLDocumentStart.check(gathered, isWhole: true)
            try gathered.withUnsafeBytes { try run(UnsafeRawBufferPointer(rebasing: $0[bom...]), handler) }
        }
        guard utf8.remaining == 0 else { throw fail("the file ends inside a UTF-8 character") }
        guard place == .epilog, state == .misc else {
            if let open = openEnds.indices.last {
                throw fail("the file ends before <\(quoted(openName(open)))> is closed: it was cut short")
            }
            throw fail(place == .prolog ? "the file ends before its root element" : "the file ends inside markup")
        }
    }

    private mutating func run(_ bytes: UnsafeRawBufferPointer, _ handler: (HealthXMLEvent) throws -> Void) throws {
        var index = 0
        while index < bytes.count {
            // Most of an export is names and attribute values of printable ASCII inside the root:
            // runs of it are passed over, or kept, whole (never inside a UTF-8 character).
            if place == .content && utf8.remaining == 0 {
                let run = fastRun(bytes, from: index)
                if run > index {
                    index = run
                    continue
                }
            }
            let byte = bytes[index]
            index += 1
            if byte >= 0x80 {
                guard utf8.accept(byte) else { throw fail("bytes that are not UTF-8: \(hex(byte)) cannot be where it is") }
            } else {
                guard utf8.remaining == 0 else { throw fail("bytes that are not UTF-8: a character cut short by \(hex(byte))") }
                if byte < 0x20 {
                    if byte == 0x0A {
                        line += 1
                    } else if byte == 0 {
                        throw fail("a zero byte, which XML does not allow")
                    }
                }
            }
            if place != .content {
                outsideRoot += 1
                guard outsideRoot <= Self.outsideRootLimit else {
                    throw fail(place == .epilog ? "more than a mebibyte after the root element" : "no root element in its first mebibyte")
                }
            }
            switch state {
            case .text:
                if byte == UInt8(ascii: "<") {
                    markupLine = line
                    state = .markup
                } else if byte == UInt8(ascii: "&") {
                    startReference(in: .text)
                }
            case .value:
                if byte == quote {
                    if let keptAttribute { attributes.set(keptAttribute, from: valueStart, length: valueLength) }
                    state = .afterValue
                } else if byte == UInt8(ascii: "<") {
                    throw fail("a < inside an attribute value")
                } else if byte == UInt8(ascii: "&") {
                    startReference(in: .value)
                } else if keptAttribute != nil {
                    keep(byte)
                }
            case .tagName:
                if Self.isNameByte(byte) {
                    guard elementName.count < Self.maximumNameLength else { throw fail("an element name longer than 256 bytes") }
                    elementName.append(byte)
                } else {
                    beginAttributes()
                    try afterName(byte, handler)
                }
            case .inTag:
                if Self.isSpace(byte) { break }
                if Self.isNameStart(byte) {
                    attributeStarts.append(attributeNames.count)
                    attributeNames.append(byte)
                    state = .attributeName
                } else {
                    try afterName(byte, handler)
                }
            case .attributeName:
                if Self.isNameByte(byte) {
                    guard attributeNames.count - attributeStarts[attributeStarts.count - 1] < Self.maximumNameLength else {
                        throw fail("an attribute name longer than 256 bytes")
                    }
                    attributeNames.append(byte)
                } else {
                    try endAttributeName()
                    if byte == UInt8(ascii: "=") {
                        state = .beforeValue
                    } else if Self.isSpace(byte) {
                        state = .beforeEquals
                    } else {
                        throw fail("an attribute without = after its name")
                    }
                }
            case .beforeEquals:
                if byte == UInt8(ascii: "=") {
                    state = .beforeValue
                } else if !Self.isSpace(byte) {
                    throw fail("an attribute without = after its name")
                }
            case .beforeValue:
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                    valueStart = attributes.storage.count
                    valueLength = 0
                    state = .value
                } else if !Self.isSpace(byte) {
                    throw fail("an attribute value without quotes")
                }
            case .afterValue:
                if Self.isSpace(byte) {
                    state = .inTag
                } else if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") {
                    try afterName(byte, handler)
                } else {
                    throw fail("attributes without white space between them")
                }
            case .emptyTagEnd:
                guard byte == UInt8(ascii: ">") else { throw fail("a / in a tag that is not followed by >") }
                try endStartTag(empty: true, handler)
            case .endName:
                if Self.isNameByte(byte) && (!name.isEmpty || Self.isNameStart(byte)) {
                    guard name.count < Self.maximumNameLength else { throw fail("an element name longer than 256 bytes") }
                    name.append(byte)
                } else if byte == UInt8(ascii: ">") && !name.isEmpty {
                    try endEndTag(handler)
                } else if Self.isSpace(byte) && !name.isEmpty {
                    state = .afterEndName
                } else {
                    throw fail("an end tag that is not </name>")
                }
            case .afterEndName:
                if byte == UInt8(ascii: ">") {
                    try endEndTag(handler)
                } else if !Self.isSpace(byte) {
                    throw fail("an end tag that is not </name>")
                }
            case .misc:
                if byte == UInt8(ascii: "<") {
                    markupLine = line
                    declarationAllowed = atDocumentStart
                    atDocumentStart = false
                    state = .markup
                } else if Self.isSpace(byte) {
                    atDocumentStart = false
                } else {
                    throw fail(place == .epilog ? "text after the root element" : "text before the root element")
                }
            case .markup:
                try afterOpeningBracket(byte)
            case .reference:
                try readReference(byte)
            default:
                try skip(byte)
            }
        }
    }

    /// Where the run of bytes from `start` that the scanner can take whole ends: printable ASCII that
    /// is part of an attribute value, of text, or of an element or attribute name. `start` when none.
    private mutating func fastRun(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var end = start
        switch state {
        case .value:
            while end < bytes.count, Self.isPlain(bytes[end]), bytes[end] != quote { end += 1 }
            if keptAttribute != nil, end > start { keep(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) }
        case .text:
            while end < bytes.count, Self.isPlain(bytes[end]) { end += 1 }
        case .tagName:
            while end < bytes.count, elementName.count + end - start < Self.maximumNameLength, Self.isASCIINameByte(bytes[end]) { end += 1 }
            elementName.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        case .attributeName:
            let length = attributeNames.count - attributeStarts[attributeStarts.count - 1]
            while end < bytes.count, length + end - start < Self.maximumNameLength, Self.isASCIINameByte(bytes[end]) { end += 1 }
            attributeNames.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        default:
            return start
        }
        return end
    }
}
