import Foundation

/// A store file (the database, its `-wal` or `-shm`) that other users may read or write.
package struct StoreFileExposure: Sendable, Equatable, CustomStringConvertible {
    /// The file.
    package let path: String
    /// Its permission bits (e.g. 0o644).
    package let mode: UInt32

    /// What is wrong and the command that fixes it.
    package var description: String {
        "store file \(path) is accessible to other users (mode \(String(mode, radix: 8))); it holds every pass's "
            + "authentication token and every device's push token: chmod 600 \(path)"
    }
}

/// Who may read the store. It holds every pass's authentication token and every device's push token, so it is
/// created readable and writable by its owner only; SQLite gives the `-wal` and `-shm` files it creates later the
/// database file's mode, so they are 0600 too. An existing file that others can open is reported, never changed
/// behind the user's back.
enum SQLiteFileMode {
    /// Permission bits of a store PassMint creates.
    static let ownerOnly: mode_t = 0o600

    /// Creates `path` empty with mode 0600 when it does not exist yet (SQLite would create it 0644 under the
    /// usual umask). Any other failure is left to SQLite's own open, which reports it with the file's name.
    static func createIfMissing(_ path: String) {
        guard isFile(path) else { return }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, ownerOnly)
        if descriptor >= 0 { close(descriptor) }
    }

    /// The store's files (database, `-wal`, `-shm`) that exist and carry group or other permission bits.
    static func exposures(_ path: String) -> [StoreFileExposure] {
        guard isFile(path) else { return [] }
        return [path, path + "-wal", path + "-shm"].compactMap { file in
            var status = stat()
            guard stat(file, &status) == 0 else { return nil }
            let mode = UInt32(status.st_mode) & 0o777
            return mode & 0o077 != 0 ? StoreFileExposure(path: file, mode: mode) : nil
        }
    }

    /// False for SQLite's in-memory and temporary databases and for URI file names, which name no plain file.
    private static func isFile(_ path: String) -> Bool {
        !path.isEmpty && path != ":memory:" && !path.hasPrefix("file:")
    }
}
