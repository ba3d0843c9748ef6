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
        }
    }
}
