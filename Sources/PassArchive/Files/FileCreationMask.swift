import Glibc

/// The process's file-creation mask (umask), read once. `umask(2)` cannot be read without setting it, which would
/// race with other threads creating files, so it is read from `/proc/self/status`; unknown (no procfs) counts as
/// a mask that may change any mode.
enum FileCreationMask {
    /// The mask, nil when it cannot be read.
    static let value: mode_t? = read()

    /// True when a file created with `mode` gets exactly `mode` (the mask clears none of its bits).
    static func keeps(_ mode: mode_t) -> Bool {
        guard let value else { return false }
        return value & mode == 0
    }

    private static func read() -> mode_t? {
        guard let bytes = try? FileBytes.read("/proc/self/status") else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("Umask:") {
            return mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: " \t"), radix: 8)
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var s = self
        while let first = s.first, set.contains(first) { s = s.dropFirst() }
        while let last = s.last, set.contains(last) { s = s.dropLast() }
        return s
    }
}
