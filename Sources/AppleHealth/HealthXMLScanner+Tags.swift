/// Start tags, end tags and references: where the scanner checks that elements nest and attributes
/// are unique, keeps the attributes its reader asks for, and tells it the elements it asks for.
extension HealthXMLScanner {
    /// After `<`: a start tag, an end tag, a processing instruction or `<!`.
    mutating func afterOpeningBracket(_ byte: UInt8) throws {
        if Self.isNameStart(byte) {
            guard place != .epilog else { throw fail("a second root element") }
            elementName.removeAll(keepingCapacity: true)
            elementName.append(byte)
            state = .tagName
        } else if byte == UInt8(ascii: "/") {
            guard place == .content else { throw fail("an end tag outside the root element") }
            name.removeAll(keepingCapacity: true)
            state = .endName
        } else if byte == UInt8(ascii: "?") {
            name.removeAll(keepingCapacity: true)
            state = .piTarget
        } else if byte == UInt8(ascii: "!") {
            state = .bang
        } else {
            throw fail("a < that starts no tag")
        }
    }

    /// The start tag's name is read: what its kind keeps is made ready.
    mutating func beginAttributes() {
        elementKind = HealthXMLElement.Kind(elementName[...])
        attributeNames.removeAll(keepingCapacity: true)
        attributeStarts.removeAll(keepingCapacity: true)
        // What is told of an element holds its own attributes, none of an earlier one's.
        if elementKind != .other || openEnds.isEmpty { attributes.removeAll() }
    }

    /// After an element name or an attribute value, `byte` is none of the name's or the value's.
    mutating func afterName(_ byte: UInt8, _ handler: (HealthXMLEvent) throws -> Void) throws {
        switch byte {
        case UInt8(ascii: ">"): try endStartTag(empty: false, handler)
        case UInt8(ascii: "/"): state = .emptyTagEnd
        case _ where Self.isSpace(byte): state = .inTag
        default: throw fail("\(shown(byte)) in a tag")
        }
    }

    /// An attribute's name is read: it must be the element's only one of that name.
    mutating func endAttributeName() throws {
        let start = attributeStarts[attributeStarts.count - 1]
        let current = attributeNames[start...]
        for index in 0..<(attributeStarts.count - 1) {
            let earlier = attributeNames[attributeStarts[index]..<attributeStarts[index + 1]]
            if earlier.count == current.count && earlier.elementsEqual(current) {
                throw fail("the attribute '\(quoted(current))' twice in one element")
            }
        }
        guard attributeStarts.count <= Self.maximumAttributes else { throw fail("an element with more than 256 attributes") }
        keptAttribute = elementKind.keepsAttributes ? HealthXMLAttributes.Name(current) : nil
    }

    mutating func endStartTag(empty: Bool, _ handler: (HealthXMLEvent) throws -> Void) throws {
        let depth = openEnds.count + 1
        guard depth <= Self.maximumDepth else { throw fail("elements nested more than \(Self.maximumDepth) deep") }
        let kind = elementKind
        if kind != .other || depth == 1 {
            let rootName = depth == 1 ? String(decoding: elementName, as: UTF8.self) : nil
            try handler(.start(HealthXMLElement(kind: kind, line: markupLine, depth: depth, rootName: rootName, attributes: attributes)))
        }
        if empty {
            if kind != .other { try handler(.end(kind)) }
            endElement(wasRoot: depth == 1)
        } else {
            openNames.append(contentsOf: elementName)
            openEnds.append(openNames.count)
            openKinds.append(kind)
            place = .content
            state = .text
        }
    }

    mutating func endEndTag(_ handler: (HealthXMLEvent) throws -> Void) throws {
        let top = openEnds.count - 1
        guard openName(top).elementsEqual(name) else {
            throw fail("</\(quoted(name[...]))> where </\(quoted(openName(top)))> is due")
        }
        let kind = openKinds.removeLast()
        openEnds.removeLast()
        openNames.removeLast(openNames.count - (openEnds.last ?? 0))
        if kind != .other { try handler(.end(kind)) }
        endElement(wasRoot: openEnds.isEmpty)
    }

    mutating func endElement(wasRoot: Bool) {
        if wasRoot {
            place = .epilog
            outsideRoot = 0
            state = .misc
        } else {
            state = .text
        }
    }

    func openName(_ index: Int) -> ArraySlice<UInt8> {
        openNames[(index == 0 ? 0 : openEnds[index - 1])..<openEnds[index]]
    }

    /// Keeps a byte of the attribute value being read, up to `keptBytes`; control characters become
    /// spaces, as XML's attribute-value normalization makes line breaks and tabs.
    mutating func keep(_ byte: UInt8) {
        valueLength += 1
        if valueLength <= HealthXMLAttributes.keptBytes { attributes.append(byte < 0x20 ? 0x20 : byte) }
    }

    /// Keeps printable bytes of the attribute value being read, up to `keptBytes`.
    mutating func keep(_ run: UnsafeRawBufferPointer) {
        let room = HealthXMLAttributes.keptBytes - valueLength
        if room > 0 { attributes.append(contentsOf: UnsafeRawBufferPointer(rebasing: run.prefix(room))) }
        valueLength += run.count
    }

    mutating func startReference(in context: State) {
        reference.removeAll(keepingCapacity: true)
        afterReference = context
        state = .reference
    }

    mutating func readReference(_ byte: UInt8) throws {
        guard byte == UInt8(ascii: ";") else {
            guard reference.count < XMLReference.maximumLength, Self.isNameByte(byte) || byte == UInt8(ascii: "#") else {
                throw fail("&\(quoted(reference[...])) starts no reference XML defines (&lt; &gt; &amp; &quot; &apos; &#…;)")
            }
            reference.append(byte)
            return
        }
        guard let scalar = XMLReference.scalar(reference) else {
            throw fail("&\(quoted(reference[...])); is not a reference XML defines (&lt; &gt; &amp; &quot; &apos; &#…;): "
                + "an export's DTD is never read, so its entities are never expanded")
        }
        if afterReference == .value && keptAttribute != nil {
            for byte in String(scalar).utf8 { keep(byte) }
        }
        state = afterReference
    }
}
