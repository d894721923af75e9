import JournalKit
import JournalSync
import Testing
import TestSupport

@testable import journal_syncd

/// The sync loop's decisions, rule by rule, without a process, a clock or a journal.
@Suite(.onTestThreads) struct LoopPolicyTests {
    @Test func aDatabaseHintSyncsOnlyWhenAnotherProcessCommitted() {
        var policy = LoopPolicy(dataVersion: 7)
        #expect(policy.plan(.database, dataVersion: 8) == .init(sync: true))
        #expect(policy.dataVersion == 8)
        // Its own echo: the version did not move, and no one else was writing. Nothing to do.
        #expect(policy.plan(.database, dataVersion: 8) == .init())
        // Another process writing: its commit may not show yet. Not a sync, but one look again shortly.
        #expect(policy.plan(.database, dataVersion: 8, anotherProcessWasWriting: true) == .init(scheduleRecheck: true))
        // One recheck at a time, however many hints come meanwhile.
        #expect(policy.plan(.database, dataVersion: 8, anotherProcessWasWriting: true) == .init())
        // The recheck finds the commit that had not landed yet.
        #expect(policy.plan(.recheck, dataVersion: 9) == .init(sync: true))
        // A recheck that finds nothing schedules no further one.
        #expect(policy.plan(.database, dataVersion: 9, anotherProcessWasWriting: true) == .init(scheduleRecheck: true))
        #expect(policy.plan(.recheck, dataVersion: 9, anotherProcessWasWriting: true) == .init())
    }

    @Test func anUnreadableDataVersionCountsAsAChange() {
        var policy = LoopPolicy(dataVersion: 3)
        #expect(policy.plan(.database, dataVersion: nil).sync)
    }

    @Test(arguments: [ChangeReasons.hub, .tick, .request, .startup, [.tick, .watchdog]])
    func otherReasonsSyncWithoutAskingTheDatabase(reasons: ChangeReasons) {
        #expect(!LoopPolicy(dataVersion: 0).needsDataVersion(reasons))
        var policy = LoopPolicy(dataVersion: 1)
        #expect(policy.plan(reasons, dataVersion: nil).sync)
        #expect(policy.dataVersion == 1)
    }

    @Test func theWatchdogAlonePingsAndNeverSwallowsAChange() {
        var policy = LoopPolicy(dataVersion: 1)
        #expect(policy.plan(.watchdog, dataVersion: nil) == .init(pingWatchdog: true))
        #expect(LoopPolicy(dataVersion: 0).needsDataVersion([.watchdog, .database]))
        #expect(policy.plan([.watchdog, .database], dataVersion: 2) == .init(sync: true, pingWatchdog: true))
    }

    @Test func afterAFailureOnlyTheRetryOrARequestSyncs() throws {
        var random = SystemRandomNumberGenerator()
        var policy = LoopPolicy(dataVersion: 1)
        let failure = SyncError.corruptHub(hub: "/hub", problem: "hub.json is not JSON")
        let next = policy.next(after: .failure(failure), random: &random)
        guard case .retry(let delay) = next else { Issue.record("expected a retry, got \(next)"); return }
        #expect(delay >= Backoff.initial && delay <= Backoff.initial * 1.25)
        #expect(!policy.plan(.hub, dataVersion: nil).sync)
        #expect(!policy.plan(.database, dataVersion: 5).sync)
        #expect(!policy.plan(.tick, dataVersion: nil).sync)
        #expect(policy.plan(.request, dataVersion: nil).sync)
        #expect(policy.plan(.retry, dataVersion: nil).sync)
        // The retry came: other reasons sync again.
        #expect(policy.plan(.hub, dataVersion: nil).sync)
    }

    /// After a 6-minute outage a change reached the other device 244 s after the server came back: the
    /// doorbell listening again was dropped while the retry, backed off to minutes, was pending.
    @Test func aSignOfTheHubEndsTheWaitAfterItWasOutOfReach() throws {
        var random = SystemRandomNumberGenerator()
        var policy = LoopPolicy(dataVersion: 1)
        let unreachable = SyncError.hubUnavailable(hub: "postgresql://db/journal", reason: "connection refused")
        for _ in 0..<8 { _ = policy.next(after: .failure(unreachable), random: &random) }
        #expect(policy.retryPending && policy.waitingForHub)
        #expect(!policy.plan(.database, dataVersion: 2).sync)
        #expect(!policy.plan(.tick, dataVersion: nil).sync)
        #expect(policy.plan(.hub, dataVersion: nil).sync)
        // It was back: the next failure of another kind waits for its retry again.
        _ = policy.next(after: .failure(SyncError.corruptHub(hub: "/hub", problem: "bad")), random: &random)
        #expect(!policy.waitingForHub && !policy.plan(.hub, dataVersion: nil).sync)
        #expect(policy.next(after: .success(SyncReport()), random: &random) == .settled)
        #expect(!policy.retryPending && !policy.waitingForHub)
    }

    @Test func failuresBackOffAndASuccessResetsIt() {
        var random = SystemRandomNumberGenerator()
        var policy = LoopPolicy(dataVersion: 1)
        let failure = SyncError.hubUnavailable(hub: "/hub", reason: "gone")
        var delays: [Duration] = []
        for _ in 0..<4 {
            if case .retry(let delay) = policy.next(after: .failure(failure), random: &random) { delays.append(delay) }
        }
        #expect(delays.count == 4)
        #expect(delays[3] >= Backoff.initial * 8)
        #expect(policy.next(after: .success(SyncReport()), random: &random) == .settled)
        #expect(!policy.retryPending)
        if case .retry(let delay) = policy.next(after: .failure(failure), random: &random) {
            #expect(delay <= Backoff.initial * 1.25)
        } else {
            Issue.record("expected a retry")
        }
    }

    @Test func failuresThatRetryingCannotFixEndTheLoopOrWait() {
        var random = SystemRandomNumberGenerator()
        var policy = LoopPolicy(dataVersion: 1)
        #expect(policy.next(after: .failure(SyncError.notJoined), random: &random) == .waitForJoin)
        #expect(policy.next(after: .failure(SyncError.deviceIdentityChanged), random: &random) == .exit(.deviceIdentityChanged))
        let upgraded = JournalFileError.newerSchema(path: "/j.db", version: 9, supported: 3)
        #expect(policy.next(after: .failure(upgraded), random: &random) == .exit(.journalUpgraded(upgraded.description)))
        #expect(policy.next(after: .failure(CancellationError()), random: &random) == .stop)
        let denied = SyncError.permissionDenied(path: "/hub")
        #expect(policy.next(after: .failure(denied), random: &random) == .exit(.setupFailure(denied.description)))
        #expect(!policy.retryPending)
    }

    /// A server's refusal of the setup kind (a right the role lacks) is put right on the server, at a
    /// time the daemon cannot know: it retries, where a setup of this machine ends it.
    @Test func aServersRefusalIsRetried() {
        struct LacksARight: JournalFailure, ServerRefusal {
            var kind: FailureKind { .setup }
            var description: String { "the role alice lacks INSERT on journal_hub.segments" }
        }
        var random = SystemRandomNumberGenerator()
        var policy = LoopPolicy(dataVersion: 1)
        guard case .retry = policy.next(after: .failure(LacksARight()), random: &random) else {
            Issue.record("a server's refusal ended the daemon")
            return
        }
        #expect(policy.retryPending)
    }

    @Test func aCommitDuringASyncStillCountsAfterIt() {
        var policy = LoopPolicy(dataVersion: 1)
        #expect(policy.plan(.tick, dataVersion: nil).sync)
        // Read just before the sync; a commit by another process during the sync moves it on.
        policy.syncStarts(.whole, dataVersion: 4)
        #expect(policy.plan(.database, dataVersion: 5).sync)
        policy.syncStarts(.whole, dataVersion: 5)
        #expect(!policy.plan(.database, dataVersion: 5).sync)
    }

    /// A log-only sync publishes nothing: a commit made before it started is still to be published,
    /// by the next database wake or tick.
    @Test func aLogOnlySyncLeavesACommitToPublish() {
        var policy = LoopPolicy(dataVersion: 4)
        policy.hubPolled = true
        policy.syncStarts(.logs([DeviceID(rawValue: UUIDText.random())]), dataVersion: 5)
        policy.synced(.whole, at: .seconds(0))
        #expect(policy.plan(.tick, dataVersion: 5, at: .seconds(300)).sync)
    }

    @Test func theEngineIsMadeAnewWhenTheJournalJoinsAnotherHubOrPlace() {
        let joined = HubRecord(hubID: "h1", kind: "folder", location: "/a")
        #expect(LoopPolicy.needsEngine(current: nil, joined: joined))
        #expect(!LoopPolicy.needsEngine(current: ("h1", "/a"), joined: joined))
        #expect(LoopPolicy.needsEngine(current: ("h1", "/b"), joined: joined))
        #expect(LoopPolicy.needsEngine(current: ("h2", "/a"), joined: joined))
        #expect(LoopPolicy.needsEngine(current: ("h1", "/a"), joined: nil))
    }
}

/// Housekeeping that is no sync: letting go of the code pages when the daemon has been quiet.
@Suite(.onTestThreads) struct QuietPolicyTests {
    @Test func quietLetsGoOfTheCodePagesUnlessASyncComes() {
        var policy = LoopPolicy(dataVersion: 1)
        #expect(policy.plan(.quiet, dataVersion: nil) == .init(releaseCodePages: true))
        // A sync now brings the code back: letting go before it would only cost the sync.
        let busy = policy.plan([.quiet, .hub], rang: .log(DeviceID(rawValue: "0b7b5a52-3c1e-4d6f-9a51-6f6c2d1e8a01")), dataVersion: nil)
        #expect(busy.sync && !busy.releaseCodePages)
        #expect(busy.scope == .logs([DeviceID(rawValue: "0b7b5a52-3c1e-4d6f-9a51-6f6c2d1e8a01")]))
        #expect(policy.plan([.quiet, .watchdog], dataVersion: nil) == .init(pingWatchdog: true, releaseCodePages: true))
        #expect(!ChangeReasons.quiet.wantsSync)
    }
}

/// Each wake reason mapped to what its sync reads: a ring that named logs reads those logs alone;
/// anything else, or a ring that named none, reads the whole hub.
@Suite(.onTestThreads) struct WakeScopeTests {
    let a = DeviceID(rawValue: "0b7b5a52-3c1e-4d6f-9a51-6f6c2d1e8a01")
    let b = DeviceID(rawValue: "0b7b5a52-3c1e-4d6f-9a51-6f6c2d1e8a02")

    @Test func ringsThatNameLogsReadThoseLogs() {
        var rang = RangLogs.log(a)
        rang.formUnion(.log(b))
        #expect(LoopPolicy.scope(.hub, rang: .log(a)) == .logs([a]))
        #expect(LoopPolicy.scope(.hub, rang: rang) == .logs([a, b]))
        // The watchdog's tick changes nothing of what a sync reads.
        #expect(LoopPolicy.scope([.hub, .watchdog], rang: .log(a)) == .logs([a]))
    }

    @Test func everyOtherReasonReadsTheWholeHub() {
        var unnamed = RangLogs.log(a)
        unnamed.formUnion(.unnamedRing)
        #expect(LoopPolicy.scope(.hub, rang: unnamed) == .whole)
        #expect(LoopPolicy.scope(.hub, rang: RangLogs()) == .whole)
        for reason: ChangeReasons in [.database, .tick, .request, .retry, .startup, .recheck] {
            #expect(LoopPolicy.scope(reason, rang: RangLogs()) == .whole, "\(reason)")
            #expect(LoopPolicy.scope([reason, .hub], rang: .log(a)) == .whole, "\(reason)+hub")
        }
    }

    @Test func theDaemonsOwnWriteDoesNotWidenARingsSync() {
        // Applying what a ring brought writes the journal, and inotify tells of it: that event, merged
        // with the next ring, is no change of this journal's while `data_version` stands.
        var policy = LoopPolicy(dataVersion: 4)
        let echo = policy.plan([.hub, .database], rang: .log(a), dataVersion: 4)
        #expect(echo.sync && echo.scope == .logs([a]) && !echo.scheduleRecheck)
        // Another process's commit is something to publish: the whole sync.
        let commit = policy.plan([.hub, .database], rang: .log(a), dataVersion: 5)
        #expect(commit.sync && commit.scope == .whole)
    }

    @Test func aSyncThatEndsAWaitForTheHubReadsItWhole() {
        var policy = LoopPolicy(dataVersion: 1)
        var random = SystemRandomNumberGenerator()
        _ = policy.next(after: .failure(SyncError.hubUnavailable(hub: "h", reason: "down")), random: &random)
        let plan = policy.plan(.hub, rang: .log(a), dataVersion: nil)
        #expect(plan.sync && plan.scope == .whole)
        _ = policy.next(after: .success(SyncReport()), random: &random)
        #expect(policy.plan(.hub, rang: .log(a), dataVersion: nil).scope == .logs([a]))
    }
}

@Suite(.onTestThreads) struct WakeRingsTests {
    @Test func aBurstOfRingsMergesTheLogsTheyNamed() async {
        let a = DeviceID(rawValue: "0b7b5a52-3c1e-4d6f-9a51-6f6c2d1e8a01")
        let b = DeviceID(rawValue: "0b7b5a52-3c1e-4d6f-9a51-6f6c2d1e8a02")
        let events = ChangeEvents()
        var iterator = events.makeAsyncIterator()
        events.send(.hub, rang: .log(a))
        events.send(.hub, rang: .log(b))
        #expect(await iterator.next()?.rang.scope == .logs([a, b]))
        // A `.hub` that names nothing is a ring only a whole sync reads.
        events.send(.hub, rang: .log(a))
        events.send(.hub)
        #expect(await iterator.next()?.rang.scope == .whole)
    }
}

/// A daemon on a polled hub: its looks cover the hub, so its tick syncs only what this journal's
/// watcher may have missed, and once in `polledHousekeeping` for the card that says it is alive.
@Suite(.onTestThreads) struct PolledHubTickTests {
    @Test func aTickOnAPolledHubSyncsOnlyForTheJournalOrTheHousekeeping() {
        var policy = LoopPolicy(dataVersion: 4)
        policy.hubPolled = true
        #expect(policy.needsDataVersion(.tick))
        // No whole sync yet since the start: the tick syncs.
        #expect(policy.plan(.tick, dataVersion: 4, at: .seconds(300)).sync)
        policy.synced(.whole, at: .seconds(300))
        #expect(!policy.plan(.tick, dataVersion: 4, at: .seconds(600)).sync)
        #expect(policy.plan(.tick, dataVersion: 5, at: .seconds(600)).sync)
        #expect(policy.plan(.tick, dataVersion: 5, at: .seconds(300) + LoopPolicy.polledHousekeeping).sync)
        // A look that found another device's change, or a request, syncs as ever.
        #expect(policy.plan([.tick, .hub], dataVersion: 5, at: .seconds(601)).sync)
        #expect(policy.plan(.request, dataVersion: 5, at: .seconds(602)).sync)
    }

    /// A device that only receives syncs log by log, which writes no card: its housekeeping comes all
    /// the same, or the others would call it silent after a day.
    @Test func logOnlySyncsDoNotPutOffTheHousekeeping() {
        var policy = LoopPolicy(dataVersion: 4)
        policy.hubPolled = true
        policy.synced(.whole, at: .zero)
        for hour in 1...5 { policy.synced(.logs([DeviceID(rawValue: UUIDText.random())]), at: .seconds(hour * 3600)) }
        #expect(policy.plan(.tick, dataVersion: 4, at: LoopPolicy.polledHousekeeping).sync)
    }

    @Test func aTickOnAHubThatRingsStillSyncs() {
        var policy = LoopPolicy(dataVersion: 4)
        policy.synced(.whole, at: .seconds(299))
        #expect(policy.plan(.tick, dataVersion: 4, at: .seconds(300)).sync)
    }
}

/// A server that asked to be left alone (429 or 503 with `Retry-After`) is, whatever the backoff says.
@Suite(.onTestThreads) struct RetryAfterPolicyTests {
    @Test func aRetryWaitsAtLeastAsLongAsTheServerAsked() {
        var random = SystemRandomNumberGenerator()
        var policy = LoopPolicy(dataVersion: 1)
        let busy = SyncError.hub(HubFailure(.unreachable, hub: "davs://h/hub", reason: "429", retryAfter: .seconds(600)))
        #expect(policy.next(after: .failure(busy), random: &random) == .retry(after: .seconds(600)))
        // A backoff that has grown past what the server asked keeps its own wait.
        for _ in 0..<12 { _ = policy.next(after: .failure(SyncError.hubUnavailable(hub: "davs://h/hub", reason: "down")), random: &random) }
        guard case .retry(let wait) = policy.next(after: .failure(busy), random: &random) else { Issue.record("no retry"); return }
        #expect(wait > .seconds(600))
    }
}

