import Glibc

/// Whole-file reads with POSIX calls (no Foundation), reporting `errno` text.
enum FileBytes {
    /// The complete content of the file at `path`.
    static func read(_ path: String) throws(ArchiveError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .fileSystem(path: path, operation: "opening", reason: errnoText()) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .fileSystem(path: path, operation: "reading", reason: errnoText())
            }
            if got == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<got])
        }
    }

    /// `strerror(errno)`.
    static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
