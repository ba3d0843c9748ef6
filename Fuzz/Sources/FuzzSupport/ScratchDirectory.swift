import Foundation

/// A folder of this process's own, for what a target keeps in files (FuzzCSV's input, FuzzHTTP's store).
///
/// It lives under `$PASSMINT_FUZZ_SCRATCH` (Benchmarks/fuzz sets it to a folder on /dev/shm that it removes
/// afterwards), else in the temporary folder; several fuzz processes (`-jobs`) each get their own by process id.
public final class ScratchDirectory: Sendable {
    public let path: String

    /// Creates `<scratch>/passmint-fuzz-<name>-<pid>` (emptied first when a dead process left one behind).
    public init(name: String) {
        let base = ProcessInfo.processInfo.environment["PASSMINT_FUZZ_SCRATCH"] ?? NSTemporaryDirectory()
        path = "\(base)/passmint-fuzz-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `bytes` to the file `name` in the folder, replacing it, and returns the file's path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) -> String {
        let full = path + "/" + name
        guard FileManager.default.createFile(atPath: full, contents: Data(bytes)) else {
            fatalError("fuzz harness: cannot write \(full)")
        }
        return full
    }
}
