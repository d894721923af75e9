import JournalKit

/// The thread a program's commands and its journal store run on.
public enum Executors {
    /// The command's code runs on the store's thread, so talking to the store hands no work between
    /// threads.
    public static let main = SerialThreadExecutor()
}
