import Foundation
import PassSigning

/// What is wrong with a TLS certificate or key file.
package enum TLSFileProblem: Equatable, Sendable, CustomStringConvertible {
    /// The file cannot be read (`errno` says why).
    case unreadable(kind: Kind, errno: Int32)
    /// The file is not PEM text (libmicrohttpd takes PEM only).
    case notPEM(kind: Kind)
    /// PEM, but OpenSSL cannot parse a certificate or key from it.
    case invalid(kind: Kind, SigningError)
    /// The private key is encrypted; the server needs it in the clear.
    case encryptedKey

    /// Which of the two files.
    package enum Kind: String, Sendable {
        case certificate
        case privateKey = "private key"
    }

    /// The file the problem is in.
    package var kind: Kind {
        switch self {
        case .unreadable(let kind, _), .notPEM(let kind), .invalid(let kind, _): kind
        case .encryptedKey: .privateKey
        }
    }

    package var description: String {
        switch self {
        case .unreadable(_, let code): "cannot be read (\(String(cString: strerror(code))))"
        case .notPEM: "is not PEM text (no -----BEGIN line)"
        case .invalid(let kind, let error): "holds no \(kind.rawValue) OpenSSL can read (\(Self.words(error)))"
        case .encryptedKey: "is encrypted"
        }
    }

    /// OpenSSL's words from a parse failure (part of `description`).
    private static func words(_ error: SigningError) -> String {
        switch error {
        case .invalidCertificate(_, let text), .invalidPrivateKey(_, let text): text
        default: error.description
        }
    }

    var fix: String {
        switch self {
        case .unreadable: "check the path and its permissions"
        case .notPEM(.certificate): "convert it with `openssl x509 -inform DER -in FILE -out FILE.pem`"
        case .notPEM(.privateKey): "convert it with `openssl pkey -inform DER -in FILE -out FILE.pem`"
        case .invalid(.certificate, _): "give the server certificate, then its intermediates, as PEM"
        case .invalid(.privateKey, _): "give the server certificate's private key as PEM"
        case .encryptedKey: "decrypt it with `openssl pkey -in FILE -out FILE.plain` and make that file mode 0600"
        }
    }
}
