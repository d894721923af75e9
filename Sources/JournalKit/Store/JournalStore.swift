
/// The journal: one SQLite file, owned by one actor that runs every SQLite call on a thread of its own.
///
/// Every write is one `BEGIN IMMEDIATE` transaction that ticks the hybrid logical clock, gives each
/// written row the next change sequence number, and records what `undo` needs. Other processes (the
/// CLI, the sync daemon) write the same file, so nothing that a write depends on is cached here.
public actor JournalStore {
    private let executor: any StoreExecutor
    let connection: SQLiteConnection
    /// Where this journal's "now" comes from: for defaults, reports and decisions of the day.
    public nonisolated let clock: any JournalClock
    /// The real time the hybrid logical clock follows. Kept apart from `clock`, so a "what if it
    /// were then" clock (JOURNAL_NOW) cannot stamp writes from another time and win every merge.
    let physicalClock: any JournalClock

    public nonisolated let path: String
    /// This journal's device identity: the `origin` of the writes made here.
    public nonisolated let deviceID: DeviceID
    /// Which file was opened: the same path may later name another file (deleted and made anew,
    /// replaced by a backup), which a long-running owner must open afresh.
    private nonisolated let openedFile: String

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Opens the journal at `path`, creating it (and its folder) when missing. Its SQLite work runs
    /// on `executor`, a thread of its own unless given one. Tests give `physicalClock` to make
    /// hybrid clock readings tie on purpose.
    public init(
        path: String, clock: any JournalClock = SystemClock(), physicalClock: any JournalClock = SystemClock(),
        executor: any StoreExecutor = SerialThreadExecutor()
    ) async throws {
        let file = try await executor.run { try JournalFile(path: path) }
        self.init(file: file, path: path, clock: clock, physicalClock: physicalClock, executor: executor)
    }

    /// Opens the journal at `path` on the calling thread, which must be `executor`'s, for code that then
    /// works with it synchronously through `assumeIsolated`: the everyday commands, whose start-up
    /// is most of their cost, open and use it without a thread hand-off.
    public init(
        openingHere path: String, clock: any JournalClock, physicalClock: any JournalClock = SystemClock(),
        executor: SerialThreadExecutor
    ) throws {
        precondition(executor.isCurrentThread, "the store must be opened on its executor's thread")
        self.init(file: try JournalFile(path: path), path: path, clock: clock, physicalClock: physicalClock, executor: executor)
    }

    private init(
        file: JournalFile, path: String, clock: any JournalClock, physicalClock: any JournalClock,
        executor: any StoreExecutor
    ) {
        self.executor = executor
        self.connection = file.connection
        self.deviceID = file.deviceID
        self.openedFile = FileIdentity.inode(of: path)
        self.path = path
        self.clock = clock
        self.physicalClock = physicalClock
    }

    /// True while `path` still names the file this store opened; false once it was deleted or replaced.
    public nonisolated func isStillAtItsPath() -> Bool { FileIdentity.inode(of: path) == openedFile }

    /// True when called on the store's own thread; for tests of where SQLite work runs.
    func isOnStoreThread() -> Bool { executor.isCurrentThread }

    /// Runs `body` in one IMMEDIATE transaction with a write context: the clock, the next sequence
    /// number, and an undo group.
    func write<T>(_ action: UndoAction?, _ body: (inout WriteContext) throws -> T) throws -> T {
        try connection.immediateTransaction {
            var context = try WriteContext(connection: connection, device: deviceID, now: physicalClock.now(), action: action)
            let result = try body(&context)
            try context.finish()
            return result
        }
    }
}

/// The kind of change an undo group reverts: the command that made it.
enum UndoAction: String {
    case add, rm, edit, `import`
    case defineDrink = "drinks add"
    case removeDrink = "drinks rm"
}
