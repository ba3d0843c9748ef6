import Foundation

/// Errors raised while setting up the APNs push sender.
package enum PushError: Error, CustomStringConvertible, Equatable {
    /// The APNs base URL is not an `https://host[:port]` URL.
    case invalidBaseURL(String)
    /// A credential or CA file named in the configuration cannot be read.
    case unreadableFile(role: String, path: String)
    /// In-memory PEM credentials were empty or not PEM.
    case invalidPEM(role: String)
    /// A configuration number is out of range.
    case invalidSetting(name: String, value: String)
    /// libcurl refused to create a handle or accept an option.
    case curl(operation: String, message: String)
    /// An APNs auth key's key ID or team ID is not Apple's 10 letters and digits.
    case invalidTokenKey(field: String, value: String)
    /// OpenSSL could not sign a provider token with the APNs auth key.
    case tokenSigning(keyID: String, reason: String)
    /// The base URL is APNs' sandbox: pass updates are delivered by the production host only.
    case sandboxHost(String)

    package var description: String {
        switch self {
        case .invalidBaseURL(let url):
            return "APNs base URL '\(url)' is not an https:// URL; pass --apns https://api.push.apple.com "
                + "(TLS is required, plain http is refused)"
        case .unreadableFile(let role, let path):
            return "cannot read the APNs \(role) file \(path); check the path and its permissions"
        case .invalidPEM(let role):
            return "the in-memory APNs \(role) is not PEM text ('-----BEGIN'); export the Pass Type ID identity as PEM"
        case .invalidSetting(let name, let value):
            return "APNs setting \(name) = \(value) is out of range; use a positive value"
        case .curl(let operation, let message):
            return
                "libcurl failed to \(operation): \(message); check that libcurl supports HTTP/2 (curl -V lists HTTP2)"
        case .invalidTokenKey(let field, let value):
            return "the APNs auth key's \(field) '\(value)' is not 10 uppercase letters and digits; copy it from "
                + "Certificates, Identifiers & Profiles > Keys (key ID) or Membership details (team ID)"
        case .tokenSigning(let keyID, let reason):
            return "signing an APNs provider token with key \(keyID) failed: \(reason)"
        case .sandboxHost(let url):
            return "APNs base URL '\(url)' is the sandbox; Wallet takes pass updates only from the production host "
                + "\(APNsConfiguration.productionURL)"
        }
    }
}
