import Foundation

/// How a fuzz target runs: under libFuzzer (`make fuzz` builds with FUZZING) its driver calls the
/// target with inputs it makes up; in an ordinary build the target replays files (a corpus, or a
/// crash libFuzzer saved), which is how the tests run it.
public enum FuzzMain {
    public typealias Target = @convention(c) (UnsafePointer<UInt8>, Int) -> Int32

    public static func run(_ target: Target) -> Never {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, target))
        #else
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            var files = [path]
            if let names = try? FileManager.default.contentsOfDirectory(atPath: path) { files = names.sorted().map { path + "/" + $0 } }
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                let bytes = [UInt8](data) + [0]
                _ = bytes.withUnsafeBufferPointer { target($0.baseAddress!, data.count) }
                count += 1
            }
        }
        print("replayed \(count) inputs")
        exit(0)
        #endif
    }
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ target: FuzzMain.Target
) -> Int32
#endif
