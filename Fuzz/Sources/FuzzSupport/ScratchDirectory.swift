import Foundation

/// A folder of this process's own, for the readers that take a path (CSV, template folders).
///
/// It lives under `$PASSMINT_FUZZ_SCRATCH` (Benchmarks/fuzz sets it to a folder on /dev/shm that it removes
/// afterwards), else in the temporary folder; several fuzz processes (`-jobs`) each get their own by process id.
/// Each input writes every file a reader may look at, or removes it, so nothing of one input is read with the
/// next (cheaper than emptying the folder per input).
public final class ScratchDirectory: Sendable {
    public let path: String

    /// Creates `<scratch>/passmint-fuzz-<name>-<pid>` (emptied first when a dead process left one behind).
    public init(name: String) {
        let base = ProcessInfo.processInfo.environment["PASSMINT_FUZZ_SCRATCH"] ?? NSTemporaryDirectory()
        path = "\(base)/passmint-fuzz-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

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

    /// Writes `bytes` to `relative`, or removes `relative` (a file or a folder) when `bytes` is nil.
    public func write(_ relative: String, _ bytes: [UInt8]?) {
        if let bytes { write(relative, bytes) } else { try? FileManager.default.removeItem(atPath: path + "/" + relative) }
    }
}
