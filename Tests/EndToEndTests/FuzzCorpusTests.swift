import Foundation
import Testing
import TestSupport

/// Every fuzz target replays its seed corpus, and the inputs libFuzzer once found to crash it (kept in
/// the corpus), in an ordinary build: what `make fuzz` fixed stays fixed.
@Suite(.onTestThreads) struct FuzzCorpusTests {
    @Test(arguments: ["segments", "import", "time", "config", "health", "zip"])
    func replaysItsCorpusWithoutACrash(target: String) throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Corpus/\(target)").path
        let inputs = try FileManager.default.contentsOfDirectory(atPath: corpus).count
        let result = try ProcessRunner.run(ProcessRunner.executable("fuzz-\(target)"), [corpus], environment: [:])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "replayed \(inputs) inputs\n")
    }
}
