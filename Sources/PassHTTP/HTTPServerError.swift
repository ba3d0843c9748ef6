/// Everything that can fail while the HTTP server is set up or started (a single request's failure is an
/// `HTTPResponseError` instead).
package enum HTTPServerError: Error, CustomStringConvertible, Equatable {
    /// The HTTP server could not start.
    case serverStart(host: String, port: Int, message: String)
    /// Two routes in the table can match the same request.
    case routeConflict(String, String)
    /// A route table or server setting that cannot be used (a malformed route pattern).
    case invalidConfiguration(String)
    /// The access log file cannot be opened for appending.
    case accessLog(path: String, message: String)
    /// The libmicrohttpd this program runs with was built without TLS.
    case tlsUnavailable
    /// A TLS certificate or key file cannot be used (the key's content is never reported).
    case tlsFile(path: String, problem: TLSFileProblem)
    /// The TLS private key is not the key of the certificate.
    case tlsKeyMismatch(certificatePath: String, keyPath: String)

    package var description: String {
        switch self {
        case .serverStart(let host, let port, let message):
            return "could not listen on \(host):\(port): \(message); pick another port or address"
        case .routeConflict(let a, let b):
            return "route \(a) clashes with route \(b): both match the same requests; change one pattern"
        case .invalidConfiguration(let message):
            return "invalid service configuration: \(message)"
        case .accessLog(let path, let message):
            return "cannot open the access log \(path) for appending: \(message); choose a file in a writable folder"
        case .tlsUnavailable:
            return "the libmicrohttpd on this system was built without TLS (MHD_FEATURE_TLS); install one built with "
                + "GnuTLS (Debian's libmicrohttpd12 is), or terminate TLS in a reverse proxy in front of the service"
        case .tlsFile(let path, let problem):
            return "TLS \(problem.kind.rawValue) \(path) \(problem); \(problem.fix)"
        case .tlsKeyMismatch(let certificatePath, let keyPath):
            return "the TLS private key \(keyPath) does not belong to the certificate \(certificatePath) (its first "
                + "certificate must be the server's own); give the key the certificate was issued for"
        }
    }
}
