import CSQLite

extension SQLiteConnection {
    /// Refuses, while preparing, what a connection opened read-only still allows and could change:
    /// settings (`pragma query_only = 0`, `pragma journal_mode = delete`), attaching other files,
    /// loading extensions. Pragmas that only read (`pragma journal_mode`, `pragma table_info(drinks)`)
    /// are allowed. The rule is C (`journal_reading_authorizer` in CSQLite's shim): SQLite calls it.
    func allowOnlyReading() {
        _ = journal_allow_only_reading(handle)
    }
}
