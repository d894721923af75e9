import FuzzSupport
import JournalKit

/// The settings file reader on any bytes: settings in range, or a `SettingsError`, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let parsed = try? SettingsFile.parse(bytes, path: "config.toml") {
        for key in JournalSettings.Key.allCases {
            if case .number(let allowed, _) = key.kind, case .number(let value?) = parsed.settings[key], !allowed.contains(value) {
                fatalError("\(key) out of range")
            }
            if case .conditions(let conditions) = parsed.settings[key], (try? Condition.checked(conditions)) != conditions {
                fatalError("conditions \(conditions) not as checked")
            }
        }
    }
    return 0
}

@main struct FuzzConfig {
    static func main() { FuzzMain.run(fuzzConfig) }
}
