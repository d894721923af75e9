extension Duration {
    /// "8 s", "4 min": for logs and status lines.
    public var spoken: String {
        // Rounded up: a wait of half a second is not "0 s".
        let seconds = components.seconds + (components.attoseconds > 0 ? 1 : 0)
        return seconds >= 120 ? "\(seconds / 60) min" : "\(seconds) s"
    }
}
