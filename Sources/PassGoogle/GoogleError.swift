import PassModel
import PassSigning

/// Why a Google Wallet pass could not be made, signed or sent. Each case names the file or the JSON path it is
/// about; the service-account key itself never appears in one. The CLI and the HTTP layer word them.
public enum GoogleError: Error, Sendable, Equatable {
    // MARK: Identity

    /// No service-account key file was named (neither by option nor `GOOGLE_APPLICATION_CREDENTIALS`).
    case noKeyFile
    /// No issuer ID was given (neither by option nor `PASSMINT_GOOGLE_ISSUER_ID`).
    case noIssuerID
    /// The issuer ID is not the numeric ID of Google's Pay & Wallet Console.
    case invalidIssuerID(value: String)
    /// The key file cannot be read.
    case keyFileUnreadable(path: String, reason: String)
    /// The key file is not JSON (only the position is kept: the text around it could be part of the key).
    case keyFileNotJSON(path: String, line: Int, column: Int)
    /// The key file is not a service-account key as Google's console issues it: `member` is missing or wrong.
    case keyFileInvalid(path: String, member: String, expected: String)
    /// The key file's `private_key` is not an RSA key OpenSSL can read (OpenSSL's text, never the key).
    case privateKeyInvalid(path: String, openSSL: String)

    // MARK: Mapping

    /// A field Google's discovery document marks "Required." has no value; `source` says what in the template
    /// would give it one.
    case requiredFieldMissing(path: String, source: String)
    /// An identifier breaks Google's grammar (ASCII letters, digits, `.`, `_`, `-`).
    case invalidIdentifier(path: String, value: String)
    /// A value over one of Google's hard limits (characters or entries).
    case overLimit(path: String, count: Int, limit: Int, unit: String)
    /// An image must go to Google by URL and there is no public base URL to serve it under.
    case noImageBase(path: String)
    /// google.json's `member` at `path` has the wrong JSON type.
    case invalidOverride(file: String, path: String, expected: String)

    // MARK: Save links

    /// The link would be longer than browsers and mail clients keep; the class (or the object) must first be
    /// inserted through the Wallet API, which needs the network.
    case linkNeedsInsert(length: Int, limit: Int, resource: LinkResource)
    /// Signing the JWT failed.
    case signing(SigningError)
    /// The Wallet API did not take a class or object it had to insert first.
    case api(GoogleAPIError)

    /// What a long link needs inserted through the API before it can carry less.
    public enum LinkResource: String, Sendable, Equatable {
        case `class`, object
    }
}

extension GoogleError {
    /// True when the input (template, record, google.json, key file, issuer ID) is at fault rather than the machine.
    public var isInvalidInput: Bool {
        switch self {
        case .keyFileUnreadable, .signing, .api: return false
        default: return true
        }
    }
}

extension GoogleError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .noKeyFile:
            return "no Google service-account key file: download a JSON key of a service account that the Google Pay "
                + "& Wallet Console lists under Users, and set GOOGLE_APPLICATION_CREDENTIALS to its path"
        case .noIssuerID:
            return "no Google Wallet issuer ID: copy the numeric issuer ID from the Google Pay & Wallet Console "
                + "and set PASSMINT_GOOGLE_ISSUER_ID"
        case .invalidIssuerID(let value):
            return "the Google Wallet issuer ID \"\(value)\" is not a number; copy the issuer ID (digits only, not the "
                + "service account's client_id) from the Google Pay & Wallet Console"
        case .keyFileUnreadable(let path, let reason):
            return "cannot read the Google service-account key \(path): \(reason); check the path and its permissions"
        case .keyFileNotJSON(let path, let line, let column):
            return "\(path):\(line):\(column): not valid JSON; download the service account's JSON key again"
        case .keyFileInvalid(let path, let member, let expected):
            return "\(path) is not a Google service-account key file: \(member) must be \(expected); download the "
                + "JSON key again (Google Cloud console, IAM, Service accounts, Keys, Add key, JSON)"
        case .privateKeyInvalid(let path, let openSSL):
            return "\(path): private_key is not an RSA private key OpenSSL can read (\(openSSL)); download the "
                + "JSON key again"
        case .requiredFieldMissing(let path, let source):
            return "\(path) is required by Google Wallet and has no value; \(source)"
        case .invalidIdentifier(let path, let value):
            return "\(path) \"\(value)\" may use only ASCII letters, digits, '.', '_' and '-'"
        case .overLimit(let path, let count, let limit, let unit):
            return "\(path) has \(count) \(unit), more than the \(limit) Google Wallet accepts; shorten it"
        case .noImageBase(let path):
            return "\(path) needs a public https URL for its image and no base URL to serve images under was "
                + "given; give the web service URL (or the link base) that `serve` answers at"
        case .invalidOverride(let file, let path, let expected):
            return "\(file): \(path) must be \(expected)"
        case .linkNeedsInsert(let length, let limit, let resource):
            return "the Save to Google Wallet link would be \(length) characters, more than the \(limit) that "
                + "browsers and mail clients keep; its \(resource.rawValue) must first be inserted through the "
                + "Google Wallet API, which needs the network"
        case .signing(let error):
            return "signing the Google Wallet link failed: \(error.description)"
        case .api(let error):
            return "the Google Wallet API: \(error.description)"
        }
    }
}
