internal import CZip

/// A libzip error code plus libzip's `zip_error_strerror` text; mapped to `ArchiveError` by the caller,
/// which knows the file and entry names.
struct ZipFailure: Error {
    /// `ZIP_ER_*` code.
    var code: Int32
    /// libzip's text for the error.
    var message: String
    /// The archive entry being worked on, when known.
    var entry: String?

    /// Copies code and text out of a libzip error object.
    init(_ error: UnsafeMutablePointer<zip_error_t>) {
        code = zip_error_code_zip(error)
        message = String(cString: zip_error_strerror(error))
    }

    /// An error raised by PassArchive itself, in libzip's vocabulary.
    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// Runs `body` with a fresh `zip_error_t` and releases it afterwards.
    static func withError<R>(_ body: (UnsafeMutablePointer<zip_error_t>) -> R) -> R {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        return withUnsafeMutablePointer(to: &error) { body($0) }
    }

    /// PassArchive's own code (not a `ZIP_ER_*` value) for "entry larger than the reader's limit".
    static let tooLargeCode: Int32 = -1
}
