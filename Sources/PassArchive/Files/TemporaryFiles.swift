import Glibc
import Synchronization

/// The temporary files this process has open right now (an output being written before its rename), so that a
/// process stopped at once (a second Ctrl-C) removes them first: no temporary file survives an exit that runs
/// code. A SIGKILL cannot be caught; `--resume` style recovery removes what it leaves.
public enum TemporaryFiles {
    private static let open = Mutex<Set<String>>([])

    /// Records `path` as a temporary file in use.
    public static func register(_ path: String) {
        _ = open.withLock { $0.insert(path) }
    }

    /// Forgets `path` (renamed into place or removed).
    public static func unregister(_ path: String) {
        _ = open.withLock { $0.remove(path) }
    }

    /// Removes every registered temporary file; call just before the process ends abruptly.
    public static func removeAll() {
        for path in open.withLock({ paths in
            defer { paths.removeAll() }; return paths
        }) { unlink(path) }
    }
}
