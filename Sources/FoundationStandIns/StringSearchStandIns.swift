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
        let whole = searchRange ?? startIndex..<endIndex
        guard !aString.isEmpty else { return nil }
        let starts = Array(unicodeScalars[whole].indices)
        // Without .literal, a match ends where a character does: `3D` is not found in `3D` followed by an accent.
        let characterEnds = mask.contains(.literal) ? [] : Set(self[whole].indices.dropFirst()).union([whole.upperBound])
        func match(at start: String.Index) -> Range<String.Index>? {
            let scalars = unicodeScalars[start..<whole.upperBound]
            guard scalars.starts(with: aString.unicodeScalars) else { return nil }
            let end = scalars.index(start, offsetBy: aString.unicodeScalars.count)
            return mask.contains(.literal) || characterEnds.contains(end) ? start..<end : nil
        }
        switch (mask.contains(.backwards), mask.contains(.anchored)) {
        case (false, false): return starts.lazy.compactMap(match).first
        case (false, true): return starts.first.flatMap(match)
        case (true, false): return starts.reversed().lazy.compactMap(match).first
        case (true, true): return starts.reversed().lazy.compactMap(match).first { $0.upperBound == whole.upperBound }
        }
    }

    /// Stands in for swift-corelibs Foundation's `replacingOccurrences(of:with:options:range:)`, which
    /// PostgresNIO's SCRAM authentication calls to escape a user name: the same signature, given to
    /// those calls by the linker. Each match of `target` (as `standInRange` finds them, left to right,
    /// none overlapping) within `searchRange` replaced by `replacement`; `.anchored`, the matches one
    /// after another from the range's start.
    public func standInReplacingOccurrences<Target: StringProtocol, Replacement: StringProtocol>(
        of target: Target, with replacement: Replacement, options: String.CompareOptions = [],
        range searchRange: Range<String.Index>? = nil
    ) -> String {
        precondition(!options.contains(.backwards), "journal's replacingOccurrences(of:) replaces from the start only")
        let whole = searchRange ?? startIndex..<endIndex
        var result = String(self[..<whole.lowerBound])
        var position = whole.lowerBound
        while position < whole.upperBound, let found = standInRange(of: target, options: options, range: position..<whole.upperBound) {
            result += self[position..<found.lowerBound]
            result += replacement
            // Anchored, each search starts where the last match ended: a run of matches at the start goes.
            position = found.upperBound
        }
        result += self[position...]
        return result
    }
}
