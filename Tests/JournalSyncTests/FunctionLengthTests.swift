import Foundation
import Testing
import TestSupport

/// The sync engine and the daemon read, decide (values tested without I/O), then act: no function in
/// them grows past a screen, where decisions made between awaits hide (`SyncEngine.pull` was 176
/// lines, `takeUpEpochs` 178).
@Suite(.onTestThreads) struct FunctionLengthTests {
    static let longest = 60

    @Test func noFunctionOfTheEngineOrTheDaemonIsLongerThanAScreen() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        var measured = 0
        for module in ["JournalSync", "journal-syncd"] {
            let folder = sources.appendingPathComponent(module).path
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            for file in files {
                let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                for function in FunctionLengths.of(text) {
                    measured += 1
                    #expect(function.lines <= Self.longest, "\(module)/\(file):\(function.line) is \(function.lines) lines: \(function.declaration)")
                }
            }
        }
        #expect(measured > 300)
    }

    @Test func theMeasureCountsFromTheDeclarationToItsClosingBrace() {
        let text = """
            struct A {
                /// { not counted }
                func short() {
                    let s = "}"
                }

                public static func longer(
                    a: Int
                ) -> Int {
                    let block = \"\"\"
                        }}}
                        \"\"\"
                    if a > 0 { return 1 } // }
                    return 0
                }
            }
            """
        #expect(FunctionLengths.of(text).map(\.lines) == [3, 9])
    }
}

/// Where each function (and initializer) of a Swift file starts, and how many lines it spans: from its
/// declaration to its closing brace, braces in strings and comments aside.
enum FunctionLengths {
    struct Function {
        let line: Int
        let lines: Int
        let declaration: String
    }

    static var declaration: Regex<(Substring, Substring?, Substring?, Substring?, Substring?, Substring)> { /^\s*(@\w+(\([^)]*\))?\s+)*((public|private|fileprivate|internal|static|nonisolated|override|mutating|final|class|convenience|required)\s+)*(func\s+[\w<>]+|init[?!]?\s*[(<]|subscript\s*[(<]|deinit\b)/ }

    static func of(_ text: String) -> [Function] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let code = codeOnly(lines)
        var functions: [Function] = []
        for (index, line) in lines.enumerated() where line.firstMatch(of: declaration) != nil && !code[index].isEmpty {
            var depth = 0
            var opened = false
            for end in index..<lines.count {
                for character in code[end] {
                    if character == "{" { depth += 1; opened = true } else if character == "}" { depth -= 1 }
                }
                if opened && depth <= 0 {
                    functions.append(Function(line: index + 1, lines: end - index + 1, declaration: line.trimmingCharacters(in: .whitespaces)))
                    break
                }
                // A declaration without a body (a protocol's requirement) ends at its line.
                if !opened && end > index && code[end].trimmingCharacters(in: .whitespaces).isEmpty { break }
            }
        }
        return functions
    }

    /// Each line with its strings (multi-line ones too) and comments taken out: what is left of its code.
    static func codeOnly(_ lines: [String]) -> [String] {
        var inBlockString = false
        return lines.map { line in
            if line.contains("\"\"\"") {
                inBlockString.toggle()
                return inBlockString ? String(line.prefix { $0 != "\"" }) : ""
            }
            if inBlockString { return "" }
            var code = ""
            var inString = false
            var previous: Character = " "
            for character in line {
                if !inString && character == "/" && previous == "/" {
                    code.removeLast()
                    break
                }
                if character == "\"" && previous != "\\" { inString.toggle() } else if !inString { code.append(character) }
                previous = character
            }
            return code
        }
    }
}
