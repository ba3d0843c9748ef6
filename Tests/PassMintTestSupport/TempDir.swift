import Foundation

/// A fresh temporary folder, removed when the value is released (the test ends).
public final class TempDir: Sendable {
    public let url: URL

    /// Creates `<tmp>/passmint-test-<uuid>`.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("passmint-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The folder itself.
    public var path: String { url.path }

    /// A path inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `bytes` to `name` inside the folder and returns its path.
    @discardableResult
    public func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let target = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Runs `body` with a fresh temporary folder that is removed afterwards.
public func withTemporaryDirectory<R>(_ body: (String) throws -> R) throws -> R {
    let directory = try TempDir()
    return try withExtendedLifetime(directory) { try body(directory.path) }
}
