import JournalKit

/// The room left before bedtime said in drinks, in terms of the last one had: "room for one
/// espresso", "room for 2 × black-tea", "not enough for one espresso". A person thinks in cups of
/// what they drink, not in milligrams.
enum RoomWords {
    /// `: room for one espresso (64 mg)`, or nothing without a last drink with caffeine.
    static func drinks(_ roomMg: Double, lastDrink: (kind: String, caffeineMg: Double)?) -> String {
        guard let lastDrink, lastDrink.caffeineMg > 0 else { return "" }
        let name = TerminalText.escaped(lastDrink.kind)
        let each = formatMilligrams(lastDrink.caffeineMg)
        // In Double first: a drink of 1e-17 mg makes a ratio no Int holds.
        let ratio = (roomMg / lastDrink.caffeineMg).rounded(.down)
        guard ratio < 100 else { return ": room for 100 or more × \(name) (\(each) mg each)" }
        switch Int(ratio) {
        case 0: return ": not enough for one \(name) (\(each) mg)"
        case 1: return ": room for one \(name) (\(each) mg)"
        case let count: return ": room for \(count) × \(name) (\(each) mg each)"
        }
    }
}
