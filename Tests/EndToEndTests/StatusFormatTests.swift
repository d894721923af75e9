import Foundation
import Testing
import TestSupport

/// `journal status --format`: one line for a prompt or a status bar, from the fields of `--json`.
@Suite(.onTestThreads) struct StatusFormatTests {
    func machine(_ folder: String) throws -> JournalCLI {
        let machine = JournalCLI(home: folder, now: "2026-11-21T16:05:00Z")
        try machine.run("add", "espresso", "--at", "10:00")
        try machine.run("add", "large-coffee", "--at", "15:00")
        return machine
    }

    @Test func aTemplateGivesOneLineFromTheJSONFields() async throws {
        try await withTemporaryDirectory { folder in
            let machine = try machine(folder)
            let json = try #require(try machine.json("status", "--json") as? [String: Any])
            let line = try machine.run("status", "--format", "{current_mg:.0f} mg|{current_mg}|{today_mg:.2f}|{state}|{over_limit}|{{x}}")
            #expect(line.status == 0, "\(line.stderr)")
            let current = try #require(json["current_mg"] as? Double)
            #expect(line.stdout == "\(Int(current.rounded())) mg|\(current)|256.00|awake|false|{x}\n", "\(line.stdout)")
            #expect(json["state"] as? String == "awake" && json["over_limit"] as? Bool == false)
        }
    }

    @Test func waybarGetsTheJSONItWants() async throws {
        try await withTemporaryDirectory { folder in
            let machine = try machine(folder)
            try machine.run("add", "quad-espresso", "--at", "15:30")
            let line = try machine.run("status", "--format", #"{{"text": "{current_mg:.0f} mg", "tooltip": "{today_mg:.0f} of {daily_limit_mg:.0f} mg today", "class": "{state}"}}"#)
            let bar = try #require(try JSONSerialization.jsonObject(with: Data(line.stdout.utf8)) as? [String: String])
            #expect(bar["class"] == "over-limit")
            #expect(bar["tooltip"] == "512 of 400 mg today")
        }
    }

    @Test(arguments: [
        ("{nope}", "the field 'nope'"), ("{current_mg:x}", "takes .0f to .6f"), ("{current_mg", "without its '}'"),
        ("mg}", "without its '{'"),
    ])
    func aTemplateThatCannotBeUsedIsRefusedBeforeAnythingIsRead(_ template: String, _ words: String) async throws {
        try await withTemporaryDirectory { folder in
            let machine = JournalCLI(home: folder)
            let result = try machine.run("status", "--format", template)
            #expect(result.status == 64)
            #expect(result.stderr.contains(words), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: machine.databasePath), "the journal was made for a refused command")
        }
    }
}
