import PassMint
/// Why a preview, a gallery or a lint could not be made. Each message names the file (and JSON path where there
/// is one) and says what to do.
public enum PreviewError: Error, CustomStringConvertible {
    /// The file cannot be read as a pass: missing, not a zip, pass.json not JSON or not a pass (CLI exit 1).
    case invalidInput(file: String, reason: String)
    /// The pipeline's own error, carried as it is: a template that does not load, a record that does not type,
    /// an archive that cannot be read, a per-record image that cannot be used.
    case pipeline(PassMintError)
    /// The barcode at `path` cannot be drawn in its format (zint's own text in `reason`).
    case barcode(path: String, reason: String)
    /// A program PassMint needs is not installed or failed (Chromium); `fix` says what to install (CLI exit 3).
    case environment(what: String, fix: String)
    /// The output could not be written.
    case output(file: String, reason: String)

    public var description: String {
        switch self {
        case .invalidInput(let file, let reason): return "\(file): \(reason)"
        case .pipeline(let error): return error.description
        case .barcode(let path, let reason):
            return "\(path): the barcode cannot be drawn: \(reason); fix the message or pick another format"
        case .environment(let what, let fix): return "\(what); \(fix)"
        case .output(let file, let reason):
            return "cannot write \(file): \(reason); check the folder exists and is writable"
        }
    }

    /// True for failures of the machine (a missing program, an unwritable folder), not of the input.
    public var isEnvironment: Bool {
        switch self {
        case .environment, .output: return true
        case .invalidInput, .barcode: return false
        case .pipeline(let error): return error.category == .environment
        }
    }
}
