import Foundation

/// A fresh directory for one test, removed when the test's body returns or throws.
public func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("journal-test-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// The bytes of a file, for checking that something left it untouched.
public func fileBytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

/// Permission bits of a file or folder, such as 0o600.
public func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}
