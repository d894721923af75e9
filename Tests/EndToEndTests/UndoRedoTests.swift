import Foundation
import Testing
import TestSupport

/// undo takes back every change a command made, drinks of one's own included, in order; redo puts
/// back what undo took; an import says what it left deleted and brings it back when asked.
@Suite(.onTestThreads) struct UndoRedoTests {
    @Test func undoTakesBackADefinitionNotAnUnrelatedDrink() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "espresso")
            #expect(try journal.run("drinks", "add", "oat-latte", "--mg", "90").status == 0)
            let changed = try journal.run("drinks", "add", "oat-latte", "--mg", "95")
            #expect(changed.stdout.hasPrefix("Changed oat-latte: 90 mg → 95 mg."), "\(changed.stdout)")
            #expect(try journal.run("drinks", "add", "oat-latte", "--mg", "95").stdout == "oat-latte is 95 mg already: nothing changed.\n")
            let back = try journal.run("undo")
            #expect(back.stdout == "Undid drinks add: back to your drink oat-latte (90 mg)\n", "\(back.stdout)")
            #expect(try journal.run("undo").stdout == "Undid drinks add: removed your drink oat-latte (90 mg)\n")
            #expect(!(try journal.run("drinks").stdout.contains("oat-latte")))
            #expect(try journal.run("list").stdout.contains("espresso"), "the espresso stays")
            // drinks rm is undone too.
            try journal.run("drinks", "add", "guayusa", "--mg", "80")
            try journal.run("drinks", "rm", "guayusa")
            #expect(try journal.run("undo").stdout == "Undid drinks rm: restored your drink guayusa (80 mg)\n")
            #expect(try journal.run("drinks").stdout.contains("guayusa"))
        }
    }

    @Test func redoPutsBackWhatUndoTookUntilAnotherChange() async throws {
        try await withTemporaryDirectory { home in
            let journal = JournalCLI(home: home)
            try journal.run("add", "espresso", "--at", "8:00")
            try journal.run("drinks", "add", "oat-latte", "--mg", "130")
            try journal.run("add", "oat-latte", "--at", "9:00")
            let before = try journal.run("list").stdout
            #expect(try journal.run("undo").status == 0)
            #expect(try journal.run("undo").status == 0)
            #expect(try journal.run("redo").stdout == "Redid drinks add: restored your drink oat-latte (130 mg)\n")
            let drink = try journal.run("redo")
            #expect(drink.stdout.hasPrefix("Redid add: restored oat-latte 130 mg"), "\(drink.stdout)")
            #expect(try journal.run("list").stdout == before)
            let none = try journal.run("redo")
            #expect(none.status == 1 && none.stderr.contains("nothing to redo"), "\(none.stderr)")
            // A change made after an undo ends what redo can do.
            try journal.run("undo")
            try journal.run("add", "tea")
            let ended = try journal.run("redo")
            #expect(ended.status == 1 && ended.stderr.contains("a change made since an undo ends what redo can do"), "\(ended.stderr)")
        }
    }

    @Test func importingAgainAfterAnUndoSaysWhatItLeftDeleted() async throws {
        try await withTemporaryDirectory { folder in
            let first = JournalCLI(home: folder + "/a")
            for drink in ["espresso", "tea", "cola"] { try first.run("add", drink) }
            let file = folder + "/a.json"
            try first.run("export").stdout.write(toFile: file, atomically: true, encoding: .utf8)
            let journal = JournalCLI(home: folder + "/b")
            #expect(try journal.run("import", file).stdout == "Imported 3 drinks.\n")
            #expect(try journal.run("undo").status == 0)
            let again = try journal.run("import", file)
            #expect(again.status == 0)
            #expect(again.stdout == "Imported 0 drinks (3 deleted here, left deleted: --restore-deleted brings them back).\n", "\(again.stdout)")
            #expect(try journal.run("list").stdout.hasPrefix("No drinks yet"))
            // The undo can still be redone: the import that changed nothing is no change.
            #expect(try journal.run("redo").status == 0)
            #expect(try journal.run("list").stdout.split(separator: "\n").count == 4)
            let id = try #require(try journal.run("list").stdout.split(separator: "\n").dropFirst().first?.split(separator: " ").first)
            #expect(try journal.run("rm", String(id)).status == 0)
            let restored = try journal.run("import", "--restore-deleted", file)
            #expect(restored.stdout == "Imported 1 drink (1 of them deleted here, brought back; 2 already in the journal).\n", "\(restored.stdout)")
            #expect(try journal.run("list").stdout.split(separator: "\n").count == 4)
            // One undo takes the restoring import back.
            #expect(try journal.run("undo").stdout.hasPrefix("Undid import: removed"))
            #expect(try journal.run("list").stdout.split(separator: "\n").count == 3)
        }
    }
}
