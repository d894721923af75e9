/// A log line that comes back again and again (a server that drops every idle session after 20 s,
/// and the listener reconnecting each time): said the first time, then at most once per `interval`,
/// with how often it came meanwhile, so that a cause that repeats does not fill the log.
struct RepeatedLine {
    let interval: Duration
    private var said: (text: String, at: ContinuousClock.Instant)?
    private var unsaid = 0

    init(interval: Duration = .seconds(3600)) { self.interval = interval }

    /// What to log for `text` now, or nil to say nothing: a new text is said at once; the same text
    /// again only once `interval` has passed since it was last said.
    mutating func line(_ text: String, now: ContinuousClock.Instant = .now) -> String? {
        if let said, said.text == text, now - said.at < interval {
            unsaid += 1
            return nil
        }
        let repeats = said?.text == text && unsaid > 0 ? " (it came \(unsaid) more time\(unsaid == 1 ? "" : "s") since it was last logged)" : ""
        said = (text, now)
        unsaid = 0
        return text + repeats
    }
}
