import Foundation
import PassModel
import PassSigning

/// A Google Cloud service account's key file, exactly as Google's console issues it (JSON with `type`
/// `"service_account"`, `client_email`, `private_key_id`, `private_key` as PKCS#8 PEM, `token_uri`, …), parsed
/// once. The private key is kept only as an OpenSSL key behind `signer`; no property, description or error
/// holds its text.
public struct GoogleServiceAccount: Sendable {
    /// The account's email: the `iss` of save links and OAuth assertions.
    public let clientEmail: String
    /// `private_key_id`: the `kid` of the JWT header.
    public let privateKeyID: String?
    public let projectID: String?
    /// Where OAuth 2 access tokens come from (`token_uri`; Google's default when the file has none).
    public let tokenURI: String
    /// The file it was read from, for messages.
    public let path: String
    /// Signs save links and OAuth assertions (RS256) with the account's key, from many threads at once.
    public let signer: RSASHA256Signer

    /// Google's token endpoint, used when the key file names none.
    public static let defaultTokenURI = "https://oauth2.googleapis.com/token"
    /// The most bytes a key file may have (Google's are about 2.4 KB).
    public static let maxFileBytes = 64 << 10

    /// Reads a key file.
    /// - Throws: `GoogleError.keyFileUnreadable`, `.keyFileNotJSON`, `.keyFileInvalid` or `.privateKeyInvalid`,
    ///   each naming `path`.
    public static func load(path: String) throws(GoogleError) -> GoogleServiceAccount {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
            throw .keyFileUnreadable(path: path, reason: reason)
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: maxFileBytes + 1) ?? Data() } catch {
            throw .keyFileUnreadable(path: path, reason: "it cannot be read")
        }
        guard data.count <= maxFileBytes else {
            throw .keyFileUnreadable(path: path, reason: "it is larger than \(maxFileBytes) bytes; that is no key file")
        }
        return try GoogleServiceAccount(json: Array(data), path: path)
    }

    /// Parses a key file's bytes.
    /// - Parameter path: how messages name the file.
    public init(json bytes: [UInt8], path: String) throws(GoogleError) {
        let document: JSONDocument
        do { document = try JSONReader.parse(bytes, file: path) } catch {
            throw .keyFileNotJSON(path: path, line: error.line, column: error.column)
        }
        guard let root = document.value.objectValue else {
            throw .keyFileInvalid(path: path, member: "the top level", expected: "an object")
        }
        func string(_ member: String, required: Bool = true) throws(GoogleError) -> String? {
            guard let value = root[member] else {
                if required { throw .keyFileInvalid(path: path, member: member, expected: "present") }
                return nil
            }
            guard let text = value.stringValue, !text.isEmpty else {
                throw .keyFileInvalid(path: path, member: member, expected: "a non-empty string")
            }
            return text
        }
        guard try string("type") == "service_account" else {
            throw .keyFileInvalid(path: path, member: "type", expected: "\"service_account\"")
        }
        let email = try string("client_email")!
        guard email.contains("@"), !email.contains(where: { $0 == " " || $0 == "\n" }) else {
            throw .keyFileInvalid(path: path, member: "client_email", expected: "the service account's email address")
        }
        // Some tools store the key with literal `\n` for newlines; PEM needs real ones.
        var pem = try string("private_key")!
        if !pem.contains("\n"), pem.contains("\\n") { pem = pem.replacingOccurrences(of: "\\n", with: "\n") }
        guard pem.contains("-----BEGIN") else {
            throw .keyFileInvalid(path: path, member: "private_key", expected: "a PEM private key")
        }
        let key: PrivateKey
        do { key = try PrivateKey(pem: Array(pem.utf8), password: nil) } catch {
            throw .privateKeyInvalid(path: path, openSSL: Self.openSSLText(error))
        }
        do { signer = try RSASHA256Signer(key: key, keyName: path) } catch {
            throw .privateKeyInvalid(path: path, openSSL: "it is \(key.keyDescription), not RSA")
        }
        clientEmail = email
        privateKeyID = try string("private_key_id", required: false)
        projectID = try string("project_id", required: false)
        tokenURI = try string("token_uri", required: false) ?? Self.defaultTokenURI
        self.path = path
    }

    /// OpenSSL's reason, without the generic advice `SigningError` gives for Apple keys.
    private static func openSSLText(_ error: SigningError) -> String {
        switch error {
        case .invalidPrivateKey(_, let text): return text
        case .keyPasswordRequired, .wrongPassword: return "the key is encrypted"
        default: return "unreadable"
        }
    }
}

extension GoogleServiceAccount: CustomStringConvertible {
    /// The account and its file; never the key.
    public var description: String { "service account \(clientEmail) (\(path))" }
}
