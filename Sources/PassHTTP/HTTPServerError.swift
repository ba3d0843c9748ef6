import Foundation

/// Everything that can fail while the HTTP server is set up or started (a single request's failure is an
/// `HTTPResponseError` instead).
package enum HTTPServerError: Error, CustomStringConvertible, Equatable {
    /// The HTTP server could not start.
    case serverStart(host: String, port: Int, StartFailure)
    /// Two routes in the table can match the same request.
    case routeConflict(String, String)
    /// A route pattern that cannot be used.
    case invalidRoutePattern(String, RoutePatternProblem)
    /// The access log file cannot be opened for appending (`errno` says why).
    case accessLog(path: String, errno: Int32)
    /// The libmicrohttpd this program runs with was built without TLS.
    case tlsUnavailable
    /// A TLS certificate or key file cannot be used (the key's content is never reported).
    case tlsFile(path: String, problem: TLSFileProblem)
    /// The TLS private key is not the key of the certificate.
    case tlsKeyMismatch(certificatePath: String, keyPath: String)

    package var description: String {
        switch self {
        case .serverStart(let host, let port, let failure):
            return "could not listen on \(host):\(port): \(failure); pick another port or address"
        case .routeConflict(let a, let b):
            return "route \(a) clashes with route \(b): both match the same requests; change one pattern"
        case .invalidRoutePattern(let pattern, .notAbsolute):
            return "invalid service configuration: route pattern \(pattern) must start with /"
        case .invalidRoutePattern(let pattern, .repeatedParameter):
            return "invalid service configuration: route pattern \(pattern) repeats a parameter name"
        case .accessLog(let path, let code):
            return "cannot open the access log \(path) for appending: \(String(cString: strerror(code))); choose a "
                + "file in a writable folder"
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

/// What is wrong with a route pattern.
package enum RoutePatternProblem: Sendable, Equatable {
    /// It does not start with `/`.
    case notAbsolute
    /// It names one parameter twice.
    case repeatedParameter
}

/// Why libmicrohttpd did not start.
package enum StartFailure: Sendable, Equatable, CustomStringConvertible {
    /// The system refused (the address in use, no permission): `errno`.
    case system(errno: Int32)
    /// libmicrohttpd refused the options.
    case optionsRefused
    /// libmicrohttpd (GnuTLS) refused the TLS certificate or key.
    case tlsRefused
    /// The host is not an IPv4 or IPv6 address.
    case hostNotAnAddress

    package var description: String {
        switch self {
        case .system(let code): return String(cString: strerror(code))
        case .optionsRefused: return "libmicrohttpd refused the options"
        case .tlsRefused: return "libmicrohttpd (GnuTLS) refused the TLS certificate or key"
        case .hostNotAnAddress: return "host must be an IPv4 or IPv6 address"
        }
    }
}
