internal import CVips
import PassMint

/// libvips, started once per process (`vips_init` must not race with itself or run per call). Starting sets an
/// environment variable (see `pm_vips_start`), so it happens while a pass issuer is made, on the caller's thread,
/// before any worker runs, rather than on first use inside a batch's workers.
enum VipsRuntime {
    /// Started on first use; Swift runs a static initialiser exactly once, even when many workers ask at once.
    private static let started: PhotoError? = pm_vips_start() == 0 ? nil : .libraryUnavailable(message: lastError())

    /// Starts libvips (one thread per operation, no operation cache) unless it already runs.
    /// - Throws: `PhotoError.libraryUnavailable` when libvips cannot start.
    static func start() throws(PhotoError) {
        if let started { throw started }
    }

    /// libvips' error text, cleared so the next failure reports only its own (the buffer is process-wide).
    static func lastError() -> String {
        let text = vips_error_buffer().map { String(cString: $0) } ?? ""
        vips_error_clear()
        let trimmed = text.split(separator: "\n").last.map(String.init) ?? ""
        return trimmed.isEmpty ? "libvips gave no reason" : trimmed
    }
}
