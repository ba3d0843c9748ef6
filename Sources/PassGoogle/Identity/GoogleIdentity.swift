import Foundation

/// Who issues Google Wallet passes: the issuer account (its numeric ID from the Google Pay & Wallet Console) and
/// the service account that signs for it.
public struct GoogleIdentity: Sendable {
    /// The issuer ID: the prefix of every class and object ID.
    public let issuerID: String
    public let account: GoogleServiceAccount
    /// What loading found worth saying (a key file readable by others).
    public let warnings: [String]

    /// The environment variable Google's own libraries read the key file's path from.
    public static let keyFileVariable = "GOOGLE_APPLICATION_CREDENTIALS"
    /// The environment variable PassMint reads the issuer ID from.
    public static let issuerIDVariable = "PASSMINT_GOOGLE_ISSUER_ID"

    public init(issuerID: String, account: GoogleServiceAccount, warnings: [String] = []) {
        self.issuerID = issuerID
        self.account = account
        self.warnings = warnings
    }

    /// Loads the identity: the key file from `keyPath`, else `GOOGLE_APPLICATION_CREDENTIALS`; the issuer ID from
    /// `issuerID`, else `PASSMINT_GOOGLE_ISSUER_ID`.
    /// - Throws: `GoogleError.noKeyFile`, `.noIssuerID`, `.invalidIssuerID`, and the key file's errors.
    public static func load(
        keyPath: String? = nil, issuerID: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(GoogleError) -> GoogleIdentity {
        guard let id = (issuerID ?? environment[issuerIDVariable]).map(trimmed), !id.isEmpty else {
            throw .noIssuerID
        }
        guard id.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), id.utf8.count <= 32 else {
            throw .invalidIssuerID(value: String(id.prefix(40)))
        }
        guard let path = keyPath ?? environment[keyFileVariable], !path.isEmpty else { throw .noKeyFile }
        let account = try GoogleServiceAccount.load(path: path)
        return GoogleIdentity(issuerID: id, account: account, warnings: permissionWarnings(path))
    }

    /// A key file readable by group or others is said, as for Apple keys.
    static func permissionWarnings(_ path: String) -> [String] {
        guard let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int,
            mode & 0o077 != 0
        else { return [] }
        return [
            "\(path) holds the Google service account's private key and is readable by "
                + (mode & 0o007 != 0 ? "others" : "its group")
                + " (mode \(String(mode & 0o777, radix: 8))); restrict it with chmod 600 \(path)"
        ]
    }

    private static func trimmed(_ s: String) -> String {
        s.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
