import FoundationEssentials

extension StringProtocol {
    /// Stands in for swift-corelibs Foundation's `range(of:options:range:locale:)`, which PostgresNIO's
    /// SCRAM authentication calls (through `contains`): the same signature, given to those calls by
    /// the linker (Package.swift, `FoundationStandIns`). The first (or, `.backwards`, the last) range
    /// of `aString` within `searchRange` whose Unicode scalars are its scalars, at its start (or end)
    /// with `.anchored`. As Foundation's, a match ends between characters unless `.literal` (`3D` is
    /// not found in `3D` followed by a combining accent) and may begin inside one. Unlike Foundation's
    /// without `.literal`, canonically equivalent text is not matched (`é` as one scalar for `e` and an
    /// accent): PostgresNIO looks for ASCII punctuation. The other options (case, diacritics, width,
    /// numeric, regular expressions) need Foundation's tables; asked for, they stop the program.
    public func standInRange<T: StringProtocol>(
        of aString: T, options mask: String.CompareOptions = [], range searchRange: Range<String.Index>? = nil,
        locale: Locale? = nil
    ) -> Range<String.Index>? {
        let handled: String.CompareOptions = [.literal, .backwards, .anchored]
        precondition(mask.subtracting(handled).isEmpty, "journal's range(of:) handles only .literal, .backwards and .anchored: \(mask.rawValue)")
        let search = ScalarSearch(in: self, range: searchRange ?? startIndex..<endIndex, for: aString, literal: mask.contains(.literal))
        let offsets = search.starts.indices
        switch (mask.contains(.backwards), mask.contains(.anchored)) {
        case (false, false): return offsets.lazy.compactMap(search.match).first
        case (false, true): return offsets.first.flatMap(search.match)
        case (true, false): return offsets.reversed().lazy.compactMap(search.match).first
        case (true, true): return offsets.reversed().lazy.compactMap(search.match).first { $0.upperBound == search.end }
        }
    }

    /// Stands in for swift-corelibs Foundation's `replacingOccurrences(of:with:options:range:)`, which
    /// PostgresNIO's SCRAM authentication calls to escape a user name (on text a server sends too):
    /// the same signature, given to those calls by the linker. Each match of `target` (as
    /// `standInRange` finds them, left to right, none overlapping) within `searchRange` replaced by
    /// `replacement`; `.anchored`, the matches one after another from the range's start. One pass over
    /// the text, however many matches.
    public func standInReplacingOccurrences<Target: StringProtocol, Replacement: StringProtocol>(
        of target: Target, with replacement: Replacement, options: String.CompareOptions = [],
        range searchRange: Range<String.Index>? = nil
    ) -> String {
        let handled: String.CompareOptions = [.literal, .anchored]
        precondition(options.subtracting(handled).isEmpty, "journal's replacingOccurrences(of:) handles only .literal and .anchored: \(options.rawValue)")
        let whole = searchRange ?? startIndex..<endIndex
        let search = ScalarSearch(in: self, range: whole, for: target, literal: options.contains(.literal))
        var result = String(self[..<whole.lowerBound])
        var copied = whole.lowerBound
        var offset = 0
        while offset < search.starts.count {
            guard let found = search.match(at: offset) else {
                if options.contains(.anchored) { break }
                offset += 1
                continue
            }
            result += self[copied..<found.lowerBound]
            result += replacement
            copied = found.upperBound
            offset += search.needleLength
        }
        result += self[copied...]
        return result
    }
}

/// A search for one string's Unicode scalars in a range of another, its positions worked out once.
private struct ScalarSearch<Text: StringProtocol> {
    /// Where a match may start: each scalar of the range.
    let starts: [String.Index]
    let end: String.Index
    let needleLength: Int
    private let scalars: [Unicode.Scalar]
    private let needle: [Unicode.Scalar]
    /// Where a match may end without `.literal`: between characters. Nil with `.literal`: anywhere.
    private let characterEnds: Set<String.Index>?

    init(in text: Text, range: Range<String.Index>, for needle: some StringProtocol, literal: Bool) {
        starts = Array(text.unicodeScalars[range].indices)
        scalars = Array(text.unicodeScalars[range])
        end = range.upperBound
        self.needle = Array(needle.unicodeScalars)
        needleLength = self.needle.count
        characterEnds = literal ? nil : Set(text[range].indices.dropFirst()).union([range.upperBound])
    }

    /// The match that starts at the `offset`-th scalar of the range, if there is one.
    func match(at offset: Int) -> Range<String.Index>? {
        guard needleLength > 0, offset + needleLength <= scalars.count,
            scalars[offset..<(offset + needleLength)].elementsEqual(needle)
        else { return nil }
        let matchEnd = offset + needleLength == starts.count ? end : starts[offset + needleLength]
        if let characterEnds, !characterEnds.contains(matchEnd) { return nil }
        return starts[offset]..<matchEnd
    }
}
