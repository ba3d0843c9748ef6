import PassArchive
import PassModel
import PassSigning

extension PassMintError {
    /// What is wrong with a zipped template.
    public enum TemplateArchiveProblem: Sendable, Equatable {
        /// The file cannot be read.
        case unreadable
        /// The file is not a zip PassMint can read within the limits of a pass.
        case notAZip(ArchiveError)
        /// An entry name climbs out of the template (absolute, `..` or `\`).
        case unsafeEntry(String)
        /// An entry cannot be read (over a limit, a name with a NUL byte).
        case unreadableEntry(ArchiveError)
    }

    /// What is wrong with a record file.
    public enum RecordFileProblem: Sendable, Equatable {
        /// The file holds more than `limit` bytes.
        case tooLarge(size: Int, limit: Int)
        /// The file cannot be read.
        case unreadable
        /// The file is not JSON.
        case notJSON(JSONSyntaxError)
        /// The JSON is not an object of field values.
        case notAnObject
        /// The value of `key` is an array or object (`kind` names which).
        case notAScalar(key: String, kind: String)
    }

    /// What is wrong with a batch's CSV file.
    public enum CSVProblem: Sendable {
        /// The file cannot be opened.
        case cannotOpen
        /// The file holds no header.
        case empty
        /// The header record cannot be read.
        case unreadableHeader(CSVRecordProblem)
        /// No header column names a field of the template: read with the wrong separator, or another file.
        case noTemplateColumn(template: String, delimiter: CSVDelimiter, header: [String], fields: [String])
        /// A column name appears twice.
        case duplicateColumn(String)
        /// Required fields without a default have no column.
        case missingRequiredColumns([String], template: String)

        /// The input the problem is about; the header that names no field is shown whole instead.
        var about: Input? {
            if case .noTemplateColumn = self { return nil }
            return .csv
        }
    }

    /// Which way of giving a link expiry a text failed.
    public enum LinkExpiryForm: Sendable, Equatable {
        /// A date or UTC time (`--expires`).
        case time
        /// A duration such as `30d` (`--expires-in`).
        case duration
    }

    /// What is wrong with the options that name the signing identity.
    public enum IdentityProblem: Sendable, Equatable {
        /// A .p12 and a certificate or key were both given.
        case pkcs12AndCertificate
        /// The .p12 at the path was given without a password variable.
        case pkcs12PasswordMissing(String)
        /// A certificate without its key or a key without its certificate; `missing` is the one not given.
        case certificateWithoutKey(missing: Input)
        /// No file was given and the development identity at the path does not exist.
        case noDevelopmentIdentity(certificatePath: String)
        /// A certificate and key were given without the WWDR intermediate.
        case wwdrMissing
        /// The environment variable named for the password is not set.
        case passwordVariableUnset(String)

        var about: Input? {
            switch self {
            case .pkcs12AndCertificate: return .pkcs12
            case .pkcs12PasswordMissing, .passwordVariableUnset: return .password
            case .certificateWithoutKey(let missing): return missing
            case .noDevelopmentIdentity: return nil
            case .wwdrMissing: return .wwdr
            }
        }
    }

    /// What is wrong with a trust root file.
    public enum TrustRootProblem: Sendable, Equatable {
        /// The file cannot be read or parsed.
        case unreadable(SigningError)
        /// The file holds no certificate.
        case empty
    }

    /// Why an output file could not be written.
    public enum OutputProblem: Sendable, Equatable {
        /// Its folder does not exist.
        case folderMissing(String)
        /// Writing it failed.
        case writeFailed(ArchiveError)
    }

    /// Why a JSON Lines report could not be written; `underlying` errors are the file system's.
    public enum ReportProblem: Sendable {
        case cannotCreate
        case writeFailed(underlying: any Error)
        case cannotMove
    }

    /// What the pipeline asked of the store it issues into (`IssuedPassSink`) when the store failed.
    public enum SinkStep: Sendable, Equatable {
        /// Storing the passes of a window.
        case storingPasses(count: Int)
        /// Reading the stored passes of a window's lines, to issue them again with their tokens.
        case readingStoredPasses(lines: ClosedRange<Int>)
        /// Storing one issued pass.
        case storingPass(serial: String)
        /// Reading the stored pass of a serial, to issue it again with its token.
        case readingStoredPass(serial: String)
        /// Asking whether the store holds passes of the batch's template.
        case findingTemplatePasses
    }

    /// Why a batch stopped before its end.
    public enum BatchStop: Sendable {
        /// An output of the window ending at `afterLine` (a bundle, the store's rows) could not be written.
        case output(afterLine: Int, PassMintError)
        /// The record on `line` failed for a reason of the machine; `issued` passes were made before it.
        case record(line: Int, BatchRecordProblem, issued: Int)

        /// The line the batch stopped at.
        public var line: Int {
            switch self {
            case .output(let line, _): return line
            case .record(let line, _, _): return line
            }
        }
    }
}
