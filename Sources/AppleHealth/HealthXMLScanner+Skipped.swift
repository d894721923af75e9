/// What the scanner passes over without keeping anything of it: comments, CDATA sections, processing
/// instructions, and the document type declaration, internal subset and all. The declaration is one
/// opaque piece, never interpreted: only its quoted strings, comments and processing instructions are
/// followed, so that a `]` or `>` inside them does not end it, and what follows it is read as the
/// document, never as declarations.
extension HealthXMLScanner {
    static let commentOpening = Array("-".utf8)
    static let cdataOpening = Array("CDATA[".utf8)
    static let doctypeOpening = Array("OCTYPE".utf8)

    mutating func skip(_ byte: UInt8) throws {
        switch state {
        case .bang:
            if byte == UInt8(ascii: "-") {
                expect(Self.commentOpening, then: .comment)
            } else if byte == UInt8(ascii: "[") {
                guard place == .content else { throw fail("a CDATA section outside the root element") }
                expect(Self.cdataOpening, then: .cdata)
            } else if byte == UInt8(ascii: "D") {
                guard place == .prolog, !sawDoctype else { throw fail("a document type declaration where none can be") }
                sawDoctype = true
                expect(Self.doctypeOpening, then: .doctype)
            } else {
                throw fail("a <! that starts no comment, CDATA section or document type declaration")
            }
        case .keyword:
            guard byte == keyword[keywordMatched] else {
                throw fail("a <! that starts no comment, CDATA section or document type declaration")
            }
            keywordMatched += 1
            if keywordMatched == keyword.count { state = afterKeyword }
        case .comment:
            if byte == UInt8(ascii: "-") { state = .commentDash }
        case .commentDash:
            state = byte == UInt8(ascii: "-") ? .commentDashes : .comment
        case .commentDashes:
            guard byte == UInt8(ascii: ">") else { throw fail("-- inside a comment, which XML does not allow") }
            endMarkup()
        case .cdata:
            if byte == UInt8(ascii: "]") { state = .cdataBracket }
        case .cdataBracket:
            state = byte == UInt8(ascii: "]") ? .cdataBrackets : .cdata
        case .cdataBrackets:
            if byte == UInt8(ascii: ">") {
                state = .text
            } else if byte != UInt8(ascii: "]") {
                state = .cdata
            }
        case .piTarget:
            try readTarget(byte)
        case .pi:
            if byte == UInt8(ascii: "?") { state = .piQuestion }
        case .piQuestion:
            if byte == UInt8(ascii: ">") {
                endMarkup()
            } else if byte != UInt8(ascii: "?") {
                state = .pi
            }
        default:
            try skipDoctype(byte)
        }
    }

    /// A processing instruction's target: a name, and not `xml` in any case but for the declaration at
    /// the very start (which `XMLDocumentStart` read).
    private mutating func readTarget(_ byte: UInt8) throws {
        if Self.isNameByte(byte) && (!name.isEmpty || Self.isNameStart(byte)) {
            guard name.count < Self.maximumNameLength else { throw fail("a processing instruction's target longer than 256 bytes") }
            name.append(byte)
            return
        }
        guard !name.isEmpty, Self.isSpace(byte) || byte == UInt8(ascii: "?") else {
            throw fail("a processing instruction without a name")
        }
        if name.count == 3, name.map({ $0 | 0x20 }) == Array("xml".utf8) {
            guard declarationAllowed, name == Array("xml".utf8), Self.isSpace(byte) else {
                throw fail("an XML declaration that is not at the very start")
            }
        }
        state = byte == UInt8(ascii: "?") ? .piQuestion : .pi
    }

    private mutating func skipDoctype(_ byte: UInt8) throws {
        switch state {
        case .doctype:
            if byte == UInt8(ascii: "[") {
                place = .subset
                state = .subset
            } else if byte == UInt8(ascii: ">") {
                state = .misc
            } else {
                quoteIfOpening(byte, returningTo: .doctype)
            }
        case .subset:
            if byte == UInt8(ascii: "<") {
                state = .subsetMarkup
            } else if byte == UInt8(ascii: "]") {
                place = .prolog
                state = .afterSubset
            } else {
                quoteIfOpening(byte, returningTo: .subset)
            }
        case .subsetMarkup:
            if byte == UInt8(ascii: "!") {
                state = .subsetBang
            } else if byte == UInt8(ascii: "?") {
                name.removeAll(keepingCapacity: true)
                declarationAllowed = false
                state = .piTarget
            } else {
                inDeclaration(byte)
            }
        case .subsetBang:
            if byte == UInt8(ascii: "-") {
                expect(Self.commentOpening, then: .comment)
            } else if byte == UInt8(ascii: "[") {
                throw fail("a conditional section, which an internal subset cannot have")
            } else {
                inDeclaration(byte)
            }
        case .subsetDeclaration:
            inDeclaration(byte)
        case .afterSubset:
            if byte == UInt8(ascii: ">") {
                state = .misc
            } else if !Self.isSpace(byte) {
                throw fail("\(shown(byte)) after the document type declaration's internal subset")
            }
        case .quoted:
            if byte == quote { state = afterQuote }
        default:
            throw fail("the scanner lost its place")
        }
    }

    /// Inside a markup declaration (`<!ENTITY ...>`): until its `>`, quoted strings passed over whole.
    private mutating func inDeclaration(_ byte: UInt8) {
        if byte == UInt8(ascii: ">") {
            state = .subset
        } else {
            state = .subsetDeclaration
            quoteIfOpening(byte, returningTo: .subsetDeclaration)
        }
    }

    private mutating func quoteIfOpening(_ byte: UInt8, returningTo state: State) {
        guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") else { return }
        quote = byte
        afterQuote = state
        self.state = .quoted
    }

    private mutating func expect(_ keyword: [UInt8], then next: State) {
        self.keyword = keyword
        keywordMatched = 0
        afterKeyword = next
        state = .keyword
    }

    /// After a comment or a processing instruction: back to where it was.
    private mutating func endMarkup() {
        switch place {
        case .content: state = .text
        case .subset: state = .subset
        case .prolog, .epilog: state = .misc
        }
    }
}
