import Foundation
import PassMint
import PassModel

/// Why a preview, a gallery or a lint could not be made. Each case carries the file (and JSON path where there
/// is one) and what is wrong as data; `description` says it once, with what to do.
public enum PreviewError: Error, CustomStringConvertible {
    /// The pipeline's own error, carried as it is: a template that does not load, a record that does not type,
    /// an archive that cannot be read, a per-record image that cannot be used.
    case pipeline(PassMintError)
    /// No file or folder at the path.
    case notFound(path: String)
    /// The file cannot be read.
    case unreadable(path: String)
    /// The archive holds neither pass.json nor .pkpass files.
    case notAPass(file: String)
    /// The folder holds no .pkpass or .pkpasses file.
    case noPasses(folder: String)
    /// pass.json (`file`) is not JSON.
    case passJSONSyntax(file: String, JSONSyntaxError)
    /// pass.json (`file`) has a value the pass model cannot hold.
    case passJSONModel(file: String, PassModelError)
    /// pass.json has no style dictionary, so there is nothing to draw.
    case noStyle(file: String)
    /// A tier was asked for and the template (`file` is its template.json) has none.
    case noTiers(file: String, tier: String)
    /// The tier asked for is not one of the template's.
    case unknownTier(file: String, tier: String, tiers: [String])
    /// The barcode at `path` cannot be drawn.
    case barcode(path: String, BarcodeProblem)
    /// A program or resource PassMint needs is missing or failed.
    case environment(EnvironmentProblem)
    /// The output `file` could not be written.
    case output(file: String, OutputProblem)

    /// Why a barcode cannot be drawn.
    public enum BarcodeProblem: Sendable {
        case noFormat
        case noMessage
        /// The message does not fit the format (the format's rule in PassModel's words).
        case invalidMessage(String)
        /// The format is not one Wallet draws.
        case unsupportedFormat(String)
        /// libzint refused the message (its own error text).
        case zint(String)
    }

    /// What is missing or failed on the machine.
    public enum EnvironmentProblem: Sendable {
        /// `PASSMINT_CHROMIUM` names a file that is not executable.
        case chromiumNotExecutable(String)
        /// No Chromium on PATH.
        case chromiumMissing
        /// Chromium ran and wrote no screenshot.
        case noScreenshot(executable: String)
        /// Chromium cannot be started; `underlying` is why.
        case chromiumUnstartable(executable: String, underlying: any Error)
        /// Chromium exited with a failure status.
        case chromiumFailed(executable: String, status: Int32)
        /// No temporary folder can be made under `base`.
        case temporaryFolder(base: String)
        /// libzint could not allocate a barcode.
        case outOfMemory
    }

    /// Why an output could not be written.
    public enum OutputProblem: Sendable {
        /// A folder or file operation failed; `underlying` is the file system's error.
        case fileSystem(underlying: any Error)
        /// The file cannot be created.
        case cannotCreateFile
        /// Its temporary file (`path`) cannot be created.
        case cannotCreate(path: String)
        /// Renaming the temporary into place failed (`errno`).
        case rename(errno: Int32)
    }

    public var description: String {
        switch self {
        case .pipeline(let error): return error.description
        case .notFound(let path):
            return "\(path): no such file or folder; give a .pkpass, a .pkpasses or a template folder"
        case .unreadable(let path): return "\(path): cannot read the file; check its permissions"
        case .notAPass(let file): return "\(file): holds neither pass.json nor .pkpass files; it is not a pass"
        case .noPasses(let folder):
            return "\(folder): holds no .pkpass or .pkpasses file; give a batch's output folder"
        case .passJSONSyntax(let file, let error): return "\(file): \(error.description)"
        case .passJSONModel(let file, let error): return "\(file): \(error.description)"
        case .noStyle(let file):
            return "\(file): pass.json has no style dictionary (boardingPass, coupon, eventTicket, generic, storeCard "
                + "or posterGeneric), so there is nothing to draw"
        case .noTiers(let file, let tier):
            return "\(file): tier \"\(tier)\" was asked for, but the template has no tiers; ask for none, or add "
                + "\"tiers\" to template.json"
        case .unknownTier(let file, let tier, let tiers):
            return "\(file): no tier \"\(tier)\"; tiers: " + tiers.joined(separator: ", ")
        case .barcode(let path, let problem):
            return "\(path): the barcode cannot be drawn: \(Self.words(problem)); fix the message or pick another "
                + "format"
        case .environment(let problem): return Self.words(problem)
        case .output(let file, let problem):
            return "cannot write \(file): \(Self.words(problem)); check the folder exists and is writable"
        }
    }

    private static func words(_ problem: BarcodeProblem) -> String {
        switch problem {
        case .noFormat: return "it has no format; add \"format\": \"PKBarcodeFormatQR\""
        case .noMessage: return "it has no message; add the text the scanner should read"
        case .invalidMessage(let rule): return rule
        case .unsupportedFormat(let format):
            return "\(format) is not a format Wallet draws; use one of "
                + BarcodeFormat.allKnown.map(\.rawValue).joined(separator: ", ")
        case .zint(let text): return text
        }
    }

    private static func words(_ problem: EnvironmentProblem) -> String {
        switch problem {
        case .chromiumNotExecutable(let given):
            return "PASSMINT_CHROMIUM is \(given), which is not an executable file; point it at the chromium binary "
                + "or unset it"
        case .chromiumMissing:
            return "PNG previews need headless Chromium, and none was found on PATH; install it (Debian: apt-get "
                + "install chromium, or scripts/install-deps), set PASSMINT_CHROMIUM, or make an HTML preview instead"
        case .noScreenshot(let executable):
            return "\(executable) ran but wrote no screenshot; run it by hand with --headless --screenshot to see why"
        case .chromiumUnstartable(let executable, let underlying):
            return "cannot start \(executable): \(underlying); check that Chromium is installed"
        case .chromiumFailed(let executable, let status):
            return "\(executable) exited with status \(status); run it by hand with --headless --no-sandbox to see "
                + "its error"
        case .temporaryFolder(let base):
            return "cannot create a temporary folder under \(base); check TMPDIR is writable"
        case .outOfMemory:
            return "libzint could not allocate a barcode; the machine is out of memory"
        }
    }

    private static func words(_ problem: OutputProblem) -> String {
        switch problem {
        case .fileSystem(let underlying): return "\(underlying)"
        case .cannotCreateFile: return "cannot create the file"
        case .cannotCreate(let path): return "cannot create \(path)"
        case .rename(let code): return String(cString: strerror(code))
        }
    }

    /// True for failures of the machine (a missing program, an unwritable folder), not of the input.
    public var isEnvironment: Bool {
        switch self {
        case .environment, .output: return true
        case .pipeline(let error): return error.category == .environment
        default: return false
        }
    }
}
