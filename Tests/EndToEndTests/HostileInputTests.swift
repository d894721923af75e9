import Foundation
import Testing
import TestSupport

/// Files, settings, arguments and text that are hostile or merely odd: refused clearly, never a crash
/// or a hang, and never acted on by the terminal.
@Suite(.onTestThreads) struct HostileInputTests {
    func shell(_ journal: JournalCLI, _ script: String) throws -> ProcessResult {
        try ProcessRunner.run("/bin/sh", ["-c", script, JournalCLI.binary], environment: journal.environment)
    }

    @Test func importsThatAreNotRegularFilesOrAreHugeAreRefusedByName() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let zero = try journal.run("import", "/dev/zero")
            #expect(zero.status == 65)
            #expect(zero.stderr.contains("/dev/zero") && zero.stderr.contains("not a regular file"), "\(zero.stderr)")
            let huge = home + "/huge.json"
            #expect(FileManager.default.createFile(atPath: huge, contents: nil))
            #expect(truncate(huge, 300 << 20) == 0)
            let big = try journal.run("import", huge)
            #expect(big.status == 65)
            #expect(big.stderr.contains("larger than 256 MiB"), "\(big.stderr)")
            for result in [zero, big] { #expect(!result.stderr.contains("Fatal error")) }
        }
    }

    @Test func aSettingsFileThatIsALinkToADeviceOrAFifoIsRefusedAtOnce() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let config = home + "/.config/journal/config.toml"
            try FileManager.default.createDirectory(atPath: home + "/.config/journal", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: config, withDestinationPath: "/dev/zero")
            let linked = try journal.run("status")
            #expect(linked.status == 65 && linked.stderr.contains("not a regular file"), "\(linked.stderr)")
            try FileManager.default.removeItem(atPath: config)
            #expect(mkfifo(config, 0o600) == 0)
            // A FIFO with no writer blocks a plain open forever: a minute's `timeout` (124) bounds a
            // hang, not a busy machine's speed.
            let fifo = try shell(journal, "timeout 60 \"$0\" status")
            #expect(fifo.status == 65 && fifo.stderr.contains("not a regular file"), "\(fifo.stderr)")
            try FileManager.default.removeItem(atPath: config)
            try Data("half_life_hours = 5\n\0daily_limit_mg = 9999\n".utf8).write(to: URL(fileURLWithPath: config))
            let nul = try journal.run("status")
            #expect(nul.status == 65 && nul.stderr.contains("line 2") && nul.stderr.contains("NUL"), "\(nul.stderr)")
        }
    }

    @Test func sqlStreamsRowsAndAClosedPipeEndsItQuietly() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            // Rows without end: only the closed pipe can end the command, and a minute's `timeout`
            // (124) tells one that goes on from one that stops, however busy the machine.
            let endless = "with recursive n(i) as (select 1 union all select i + 1 from n) select i, 'row ' || i from n"
            // bash, for PIPESTATUS: the journal's own exit status, not head's.
            let head = try ProcessRunner.run(
                "/bin/bash", ["-c", "timeout 60 \"$0\" sql \"\(endless)\" | head -2; echo \"journal exited ${PIPESTATUS[0]}\" >&2",
                              JournalCLI.binary],
                environment: journal.environment)
            #expect(head.stdout.split(separator: "\n").count == 2)
            #expect(head.stderr == "journal exited 0\n", "\(head.stderr)")
            // A million rows in CSV, in little memory: its peak resident size, in KiB.
            let million = "with recursive n(i) as (select 1 union all select i + 1 from n limit 1000000) select i, 'row ' || i from n"
            let measured = try shell(journal, "/usr/bin/time -f '%M' \"$0\" sql \"\(million)\" --format csv | tail -1")
            #expect(measured.stdout == "1000000,row 1000000\r\n")
            let peak = Int(measured.stderr.split(separator: "\n").last ?? "") ?? .max
            #expect(peak < 100_000, "peak \(peak) KiB")
        }
    }

    @Test func sqlCannotWriteEvenThroughSettings() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "espresso")
            let before = try journal.fingerprint()
            let sneaky = try journal.run("sql", "pragma query_only = 0; select 1; pragma optimize")
            #expect(sneaky.status == 64 && sneaky.stderr.contains("only reading is allowed"), "\(sneaky.stderr)")
            #expect(try journal.run("sql", "pragma optimize").status == 0)
            for setting in ["pragma journal_mode = delete", "pragma writable_schema = 1", "attach ':memory:' as m",
                            "select load_extension('x')"] {
                #expect(try journal.run("sql", setting).status == 64, "\(setting)")
            }
            let schema = try journal.run("sql", "select count(*) from sqlite_schema where name = 'sqlite_stat1'", "--format", "csv")
            #expect(schema.stdout.hasSuffix("\r\n0\r\n"))
            #expect(try journal.run("sql", "pragma journal_mode").stdout.contains("wal"))
            #expect(try journal.run("sql", "pragma table_info(drinks)").stdout.contains("caffeine_mg"))
            #expect(try journal.fingerprint() == before)
        }
    }

    @Test func notesAndTimesOutsideTheRulesAreRefusedAtEveryWayIn() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let long = String(repeating: "é", count: 1001)
            let note = try journal.run("add", "espresso", "--note", long)
            #expect(note.status == 64 && note.stderr.contains("at most 1000 characters"), "\(note.stderr)")
            let export = #"[{"id": "11111111-1111-4111-8111-111111111111", "drink": "espresso", "caffeine_mg": 64, "consumed_at": "2026-11-20T10:00:00Z", "note": "\#(long)"}]"#
            let imported = try journal.run(["import", "-"], stdin: export)
            #expect(imported.status == 65 && imported.stderr.contains("element 1") && imported.stderr.contains("at most 1000"), "\(imported.stderr)")
            let ancient = try journal.run("add", "espresso", "--at", "100000 weeks ago")
            #expect(ancient.status == 65 && ancient.stderr.contains("before 1900"), "\(ancient.stderr)")
            var future = journal
            future.environment["JOURNAL_NOW"] = "3001-01-01T00:00:00Z"
            let now = try future.run("add", "espresso")
            #expect(now.status == 65 && now.stderr.contains("JOURNAL_NOW") && now.stderr.contains("after 2199"), "\(now.stderr)")
            #expect(try journal.run("list", "--json").stdout == "[]\n")
        }
    }

    @Test func textThatWouldActOnATerminalIsShownEscapedAndStoredAsItIs() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let hostile = "ok\u{1B}]52;c;aGk=\u{07}\u{1B}[2J\u{202E}evil\nID  forged row\u{9B}31m"
            try journal.run("drinks", "add", "mate", "--mg", "80")
            let added = try journal.run("add", "mate", "--note", hostile)
            #expect(added.status == 0)
            // CSV to a terminal is shown escaped too; to a file or a pipe it is the data, exactly.
            let terminal = try ProcessRunner.run(
                "/usr/bin/script", ["-qec", "\(JournalCLI.binary) export --format csv", "/dev/null"], environment: journal.environment)
            for output in [added.stdout, try journal.run("list").stdout, try journal.run("sql", "select note from drinks").stdout,
                           terminal.stdout] {
                #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E || $0.value == 0x9B })
                #expect(output.contains("\\e]52;c;aGk=\\u{7}\\e[2J\\u{202E}evil\\nID  forged row\\u{9B}31m"), "\(output)")
            }
            // A newline in a note does not forge a row of the list.
            #expect(try journal.run("list").stdout.split(separator: "\n").count == 2)
            let json = try journal.run("list", "--json").stdout
            #expect(json.contains(#"ok\u001b]52;c;aGk=\u0007\u001b[2J\u202eevil\nID  forged row\u009b31m"#), "\(json)")
            // Stored exactly as given.
            let stored = try journal.run("sql", "select hex(note) from drinks", "--format", "csv").stdout
            #expect(stored.contains(Data(hostile.utf8).map { String(format: "%02X", $0) }.joined()))
            // Echoed in an error message: shown, not acted on.
            let unknown = try journal.run("add", "\u{1B}[2Jlatte")
            #expect(unknown.status == 65 && unknown.stderr.contains("\\e[2Jlatte") && !unknown.stderr.contains("\u{1B}"), "\(unknown.stderr)")
        }
    }

    @Test func csvIsGuardedAgainstFormulasAndReadsBackExactly() async throws {
        try await withTemporaryDirectory { folder in
            let journal = JournalCLI(home: folder + "/a")
            let notes = ["=HYPERLINK(\"http://x\",\"y\")", "+1", "-2", "@SUM(A1)", "\tsneaky", "'quoted", "''twice", "plain"]
            for (index, note) in notes.enumerated() { try journal.run("add", "espresso", "--at", "\(index + 1) min ago", "--note", note) }
            let csv = try journal.run("export", "--format", "csv").stdout
            for line in csv.split(separator: "\r\n").dropFirst() {
                let note = line.split(separator: ",", maxSplits: 4).last.map(String.init) ?? ""
                let unquoted = note.hasPrefix("\"") ? String(note.dropFirst()) : note
                #expect(!"=+-@\t".contains(unquoted.first ?? "x"), "\(line)")
            }
            let fresh = JournalCLI(home: folder + "/b")
            #expect(try fresh.run(["import", "-"], stdin: csv).status == 0)
            #expect(try fresh.run("export", "--format", "csv").stdout == csv)
            #expect(try fresh.run("export").stdout == journal.run("export").stdout)
            let sql = try journal.run("sql", "select '=1+1' as formula, -5 as number", "--format", "csv").stdout
            #expect(sql == "formula,number\r\n'=1+1,-5\r\n")
        }
    }

    @Test func aCutShortOrEmptyOrUTF16ImportIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let journal = JournalCLI(home: folder + "/a")
            try journal.run("add", "espresso", "--at", "9:00", "--note", "a note, with \"quotes\"\nand two lines")
            try journal.run("add", "tea", "--at", "10:00", "--note", "second")
            let csv = Array(try journal.run("export", "--format", "csv").stdout.utf8)
            // Where a line (the header or a record) ends, and how many records are whole there: after
            // a CR or LF outside quotes.
            var ends: [Int: Int] = [:]
            var quoted = false
            var line = 0
            for (index, byte) in csv.enumerated() where byte == UInt8(ascii: "\"") || !quoted {
                if byte == UInt8(ascii: "\"") { quoted.toggle() }
                if byte == 0x0D { ends[index + 1] = line }
                if byte == 0x0A { ends[index + 1] = line; line += 1 }
            }
            #expect(Set(ends.values) == [0, 1, 2], "a header and two records: \(ends)")
            // Every cut: accepted only where a record ends, with the records before it; else refused.
            for cut in 1..<csv.count {
                let target = JournalCLI(home: folder + "/cut-\(cut)")
                let result = try target.run(["import", "-"], stdin: String(decoding: csv[..<cut], as: UTF8.self))
                guard let records = ends[cut] else {
                    #expect(result.status == 65, "cut \(cut) of \(csv.count), mid-record, was not refused: \(result.stderr)")
                    continue
                }
                if records == 0 { continue }
                #expect(result.status == 0, "cut \(cut), after record \(records): \(result.stderr)")
                let count = try target.run("sql", "select count(*) from drinks", "--format", "csv").stdout
                #expect(count == "count(*)\r\n\(records)\r\n", "cut \(cut): \(count)")
            }
            let empty = try journal.run(["import", "-"], stdin: "")
            #expect(empty.status == 65 && empty.stderr.contains("empty"), "\(empty.stderr)")
            let utf16 = folder + "/utf16.csv"
            try String(decoding: csv, as: UTF8.self).data(using: .utf16)!.write(to: URL(fileURLWithPath: utf16))
            let wide = try journal.run("import", utf16)
            #expect(wide.status == 65 && wide.stderr.contains("UTF-16"), "\(wide.stderr)")
        }
    }

    @Test func oddValuesAreNamedAsTheyWereTyped() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            let huge = try journal.run("add", "espresso", "--mg", "1e308")
            #expect(huge.status == 64 && huge.stderr.contains("1e+308 mg"), "\(huge.stderr)")
            let over = try journal.run("add", "espresso", "--mg", "1000.0000000001")
            #expect(over.status == 64 && over.stderr.contains("1000.0000000001 mg"), "\(over.stderr)")
            try FileManager.default.createDirectory(atPath: home + "/.config/journal", withIntermediateDirectories: true)
            try "half_life_hours = 72.5\n".write(toFile: home + "/.config/journal/config.toml", atomically: true, encoding: .utf8)
            let config = try journal.run("status")
            #expect(config.status == 65 && config.stderr.contains("72.5 is out of range"), "\(config.stderr)")
            try FileManager.default.removeItem(atPath: home + "/.config/journal/config.toml")
            let memory = try journal.run("--db", ":memory:", "add", "espresso")
            #expect(memory.status == 64 && memory.stderr.contains("not a file"), "\(memory.stderr)")
            #expect(!FileManager.default.fileExists(atPath: home + "/:memory:"))
            let latin1 = try shell(journal, "cd \"$HOME\" && \"$0\" add espresso --note \"$(printf 'caf\\351')\"")
            #expect(latin1.status == 64 && latin1.stderr.contains("not UTF-8"), "\(latin1.stderr)")
            #expect(try journal.run("list", "--json").stdout == "[]\n")
        }
    }
}
