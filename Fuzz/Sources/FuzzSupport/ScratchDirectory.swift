import Foundation

/// A folder of this process's own, for the readers that take a path (CSV, template folders).
///
/// It lives under `$PASSMINT_FUZZ_SCRATCH` (Benchmarks/fuzz sets it to a folder it removes afterwards), else on
/// `/dev/shm` when there is one, so writing each input costs no disk I/O; several fuzz processes (`-jobs`) each
/// get their own by process id. `reset()` empties it between inputs, so a file of one input can never be read
/// with the next.
public final class ScratchDirectory: Sendable {
    public let path: String

    /// Creates `<tmp>/passmint-fuzz-<name>-<pid>` (emptied first when a dead process left one behind).
    public init(name: String) {
        let base = ProcessInfo.processInfo.environment["PASSMINT_FUZZ_SCRATCH"]
            ?? (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
        path = "\(base)/passmint-fuzz-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `bytes` to `relative` (creating its folder) and returns the full path.
    @discardableResult
    public func write(_ relative: String, _ bytes: [UInt8]) -> String {
        let full = path + "/" + relative
        let folder = (full as NSString).deletingLastPathComponent
        if folder != path { try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        guard FileManager.default.createFile(atPath: full, contents: Data(bytes)) else {
            fatalError("fuzz harness: cannot write \(full)")
        }
        return full
    }

    /// Removes everything inside the folder, keeping the folder.
    public func reset() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            try? FileManager.default.removeItem(atPath: path + "/" + name)
        }
    }
}
