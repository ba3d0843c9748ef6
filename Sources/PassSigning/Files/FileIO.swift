import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File reading and atomic writing with the error messages of `SigningError`.
enum FileIO {
    static func read(_ path: String) throws(SigningError) -> [UInt8] {
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw .fileUnreadable(
                path: path,
                reason: FileManager.default.fileExists(atPath: path)
                    ? reason : "no such file")
        }
    }

    /// Writes `bytes` to a temporary name in the same folder with `mode`, then renames it into place.
    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t) throws(SigningError) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).tmp-\(UInt32.random(in: .min ... .max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .fileUnwritable(path: path, reason: String(cString: strerror(errno))) }
        var failure: String? = nil
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fchmod(fd, mode) != 0 { failure = String(cString: strerror(errno)) }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw .fileUnwritable(path: path, reason: failure)
        }
    }

    /// Creates `path` (and parents) with mode 0700 when missing.
    static func makeDirectory(_ path: String) throws(SigningError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return }
            throw .fileUnwritable(path: path, reason: "exists and is not a folder")
        }
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .fileUnwritable(path: path, reason: (error as NSError).localizedDescription)
        }
    }
}
