import ArgumentParser
import CommandLineSupport

public struct SyncKeyCommand: SyncSubcommand, Sendable {
    public static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Print the sync key, to carry to your next machine (keep it secret: it opens the hub).",
        discussion: """
            The key is printed as JK2- and 21 groups of 4 letters and digits: the first group names the hub \
            (as `journal sync status` does), the next 13 hold the key, 6 more an invitation this device vouches \
            for the first machine to join with, and the last checks the rest, so a mistyped, missing or extra \
            character is refused when the key is given to `journal sync init --key-file`. Each printing carries an \
            invitation of its own: print one per machine. An invitation ends 7 days after it is printed (--expires \
            says otherwise), when a machine joins with it, or when the hub's key is replaced; `journal sync \
            invitations` lists the open ones and withdraws one. --no-invitation prints the key alone (JK1-): a \
            machine that joins with it is vouched for by no one until you keep it (rotate-key --keep NAME).
            """)

    @Option(name: .long, help: ArgumentHelp("How long the invitation lasts: 30m, 12h, 7d (the default), at most 90d.", valueName: "time"))
    public var expires: String?

    @Flag(name: .long, help: "Print the key alone, without an invitation.")
    public var noInvitation = false

    @OptionGroup public var global: GlobalOptions
    @OptionGroup public var output: OutputOptions

    public init() {}

    public func validate() throws {
        if noInvitation && expires != nil { throw ValidationError("--expires is the invitation's; with --no-invitation there is none.") }
        if let expires, InvitationLifetime(expires) == nil {
            throw ValidationError("--expires takes a time such as 30m, 12h or 7d, from 10 minutes to 90 days; '\(expires)' is not one.")
        }
    }

    public var request: SyncRequest { .key(self) }
}

/// How long an invitation lasts, as `--expires` gives it: a number and a unit (m, h, d, w).
public struct InvitationLifetime: Sendable, Equatable {
    public let duration: Duration

    public static let standard = InvitationLifetime(duration: .seconds(7 * 86_400))
    static let range: ClosedRange<Int64> = 600...(90 * 86_400)

    init(duration: Duration) { self.duration = duration }

    /// `text` read as a lifetime; nil for anything else, or one outside 10 minutes to 90 days.
    public init?(_ text: String) {
        let trimmed = text.filter { !$0.isWhitespace }.lowercased()
        guard let unit = trimmed.last, let count = Int64(trimmed.dropLast()), count > 0 else { return nil }
        let seconds: Int64
        switch unit {
        case "m": seconds = count * 60
        case "h": seconds = count * 3_600
        case "d": seconds = count * 86_400
        case "w": seconds = count * 7 * 86_400
        default: return nil
        }
        guard Self.range.contains(seconds) else { return nil }
        duration = .seconds(seconds)
    }
}
