import Foundation
import Testing
import TestSupport

/// Daemons on an S3 hub (the tests' moto server), as a person runs them.
@Suite(.onTestThreads, .timeLimit(.minutes(5))) struct S3DaemonTests {
    func log(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// What B's daemon finds by polling (one listing of the hub's heads every 5 s while anything
    /// changed in the last 10 minutes): A's drink, and B's back, with an hour between safety-net syncs.
    @Test func twoMachinesSyncThroughABucketWithTheirDaemonsRunning() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, now: nil, on: .s3)
            let (a, b) = (joined.machines[0], joined.machines[1])
            let (daemonA, _) = try startDaemon(a, ["--interval", "1h"], socketPath: folder + "/a.sock", stderrPath: folder + "/a.log")
            defer { ProcessRunner.stop(daemonA, signal: SIGTERM) }
            let (daemonB, _) = try startDaemon(b, ["--interval", "1h"], socketPath: folder + "/b.sock", stderrPath: folder + "/b.log")
            defer { ProcessRunner.stop(daemonB, signal: SIGTERM) }
            #expect(try await eventually(.seconds(30)) { log(folder + "/b.log").contains("looking at the hub") })
            try a.run("add", "espresso", "--note", "through the bucket")
            #expect(try await eventually(.seconds(30)) { try notes(b).contains("through the bucket") }, "\(log(folder + "/b.log"))")
            try b.run("add", "tea", "--note", "and back")
            #expect(try await eventually(.seconds(30)) { try notes(a).contains("and back") }, "\(log(folder + "/a.log"))")
            let status = try b.run("sync", "status").stdout
            #expect(status.contains("Polled       every 5 s within 10 min of a change, every 40 s when quiet"), "\(status)")
            #expect(status.contains("Access key   journal-test, from the environment"), "\(status)")
            #expect(!status.contains(S3Server.environment["AWS_SECRET_ACCESS_KEY"] ?? "?"), "\(status)")
        }
    }

    /// journal-syncd, a systemd user service, sees none of the shell's variables: `sync init` with the
    /// key in them alone says the service will find none (and a sync with the service's environment
    /// fails saying so); with the key in ~/.aws/credentials it says nothing of it, and that sync reaches
    /// the bucket.
    @Test func syncInitSaysWhenTheServiceWillFindNoKey() async throws {
        try await withTemporaryDirectory { folder in
            let secret = S3Server.environment["AWS_SECRET_ACCESS_KEY"] ?? "?"
            let shell = JournalCLI(home: folder + "/shell", now: nil)
            let told = try shell.run("sync", "init", "--hub", try S3Server.newHubURL())
            #expect(told.status == 0, "\(told.stderr)")
            #expect(
                told.stderr.contains("journal-syncd, the background service, does not see this shell's AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, "
                    + "and finds no key for profile default in \(shell.home)/.aws/credentials"), "\(told.stderr)")
            #expect(!told.stderr.contains(secret))
            var service = shell
            service.environment = ["HOME": shell.home, "LC_ALL": "C.UTF-8"]
            let failed = try service.run("sync")
            #expect(failed.status != 0 && failed.stderr.contains("no credentials for the store were found"), "\(failed.stderr)")
            for home in [shell.home, folder + "/files"] {
                try FileManager.default.createDirectory(atPath: home + "/.aws", withIntermediateDirectories: true)
                try "[default]\naws_access_key_id = \(S3Server.environment["AWS_ACCESS_KEY_ID"] ?? "?")\naws_secret_access_key = \(secret)\n"
                    .write(toFile: home + "/.aws/credentials", atomically: true, encoding: .utf8)
                #expect(chmod(home + "/.aws/credentials", 0o600) == 0)
            }
            let synced = try service.run("sync")
            #expect(synced.status == 0, "\(synced.stderr)")
            let quiet = try JournalCLI(home: folder + "/files", now: nil).run("sync", "init", "--hub", try S3Server.newHubURL())
            #expect(quiet.status == 0 && !quiet.stderr.contains("journal-syncd"), "\(quiet.stderr)")
        }
    }

    /// An endpoint configured as AWS tools configure one (`AWS_ENDPOINT_URL`) serves `sync init` with a
    /// bare s3:// URL and is recorded, so that journal-syncd, which does not see the variable, reaches
    /// the same store.
    @Test func anEndpointFromTheEnvironmentIsRecorded() async throws {
        try await withTemporaryDirectory { folder in
            let bucket = try S3Server.newBucket()
            let endpoint = S3Server.serving(bucket).endpoint
            var shell = JournalCLI(home: folder + "/a", now: nil)
            shell.environment["AWS_ENDPOINT_URL"] = endpoint
            let made = try shell.run("sync", "init", "--hub", "s3://\(bucket)/journal")
            #expect(made.status == 0, "\(made.stderr)")
            #expect(made.stdout.contains("Made a new hub at s3://\(bucket)/journal?endpoint=\(endpoint)&region=us-east-1."), "\(made.stdout)")
            try shell.run("add", "espresso")
            var service = shell
            service.environment["AWS_ENDPOINT_URL"] = nil
            let synced = try service.run("sync")
            #expect(synced.status == 0 && synced.stdout.contains("Published"), "\(synced.stdout)\(synced.stderr)")
        }
    }

    /// A store without conditional writes is refused at `sync init`, saying what it lacks, and the
    /// journal is left as it was.
    @Test func aStoreWithoutConditionalWritesIsRefusedAtInit() async throws {
        try await withTemporaryDirectory { folder in
            let front = try S3Front(folder: folder)
            defer { front.stop() }
            let a = JournalCLI(home: folder + "/a", now: nil)
            try a.run("add", "espresso")
            let before = try a.fingerprint()
            let refused = try a.run("sync", "init", "--hub", "s3://\(try front.newBucket("careless"))/journal?endpoint=\(front.endpoint)")
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("cannot write conditionally (a second create of one name succeeded: If-None-Match: * is ignored)"), "\(refused.stderr)")
            #expect(try a.fingerprint() == before)
            let status = try a.run("sync", "status")
            #expect(status.status == 0 && status.stdout.contains("not joined to a hub yet"), "\(status.stderr)")
        }
    }
}
