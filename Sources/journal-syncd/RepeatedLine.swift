/// A log line that comes back again and again (a server that drops every idle session after 20 s,
/// and the listener reconnecting each time): said the first time, then at most once per `interval`,
/// with how often it came meanwhile, so that a cause that repeats does not fill the log.
struct RepeatedLine {
    let interval: Duration
    private var said: (cause: String, at: ContinuousClock.Instant)?
    private var unsaid = 0

    init(interval: Duration = .seconds(3600)) { self.interval = interval }

    /// What to log for `text` now, or nil to say nothing: a new `cause` (by default, the text itself)
    /// is said at once; the same cause again only once `interval` has passed since it was last said,
    /// however it is worded this time.
    mutating func line(_ text: String, cause: String? = nil, now: ContinuousClock.Instant = .now) -> String? {
        let cause = cause ?? text
        if let said, said.cause == cause, now - said.at < interval {
            unsaid += 1
            return nil
        }
        let repeats = said?.cause == cause && unsaid > 0 ? " (it came \(unsaid) more time\(unsaid == 1 ? "" : "s") since it was last logged)" : ""
        said = (cause, now)
        unsaid = 0
        return text + repeats
    }
}
