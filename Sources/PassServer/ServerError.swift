import PassGoogle
import PassHTTP
import PassMint
import PassPush
import PassService
import PassStore

/// Why `serve` could not start, or refused a reloaded identity. The parts' own errors are carried as they are;
/// `description` words them once, `category` and `about` let the CLI choose the exit code and the option.
package enum ServerError: Error, CustomStringConvertible {
    /// The identity could not be loaded, or a reloaded one was refused.
    case pipeline(PassMintError)
    /// The admin token in the environment cannot be used.
    case adminToken(ServiceError)
    /// The store cannot be opened.
    case store(StoreError)
    /// Reading the pass types of the store failed (a reload checks the new identity against them).
    case readingPassTypes(underlying: any Error)
    /// The APNs sender at `apnsURL` cannot be set up.
    case push(apnsURL: String, PushError)
    /// The web service cannot be built; `underlying` is why (a route table that clashes).
    case service(underlying: any Error)
    /// The server cannot listen.
    case listen(HTTPServerError)
    /// The Google Wallet identity (service-account key file, issuer ID) cannot be used.
    case googleIdentity(GoogleError)
    /// Google's callback root keys file cannot be used.
    case googleRootKeys(GoogleCallbackError)

    /// Whether the input or the machine is at fault.
    package var category: PassMintError.Category {
        if case .pipeline(let error) = self { return error.category }
        return .environment
    }

    /// The input at fault, when it is one option.
    package var about: PassMintError.Input? {
        switch self {
        case .pipeline(let error): return error.about
        case .store(.cannotOpenFile), .readingPassTypes: return .store
        default: return nil
        }
    }

    package var description: String {
        switch self {
        case .pipeline(let error): return error.description
        case .adminToken(let error): return error.description
        case .store(let error): return error.description
        case .readingPassTypes(let underlying): return "reading the pass types of the store: \(underlying)"
        case .push(let url, let error): return "APNs at \(url): \(error)"
        case .service(let underlying): return "starting the service: \(underlying)"
        case .listen(let error): return error.description
        case .googleIdentity(let error): return "Google Wallet: \(error.description)"
        case .googleRootKeys(let error): return "Google Wallet: \(error.description)"
        }
    }
}

/// What a reload says beyond the new identity's own warnings.
package enum ReloadNote: Sendable, CustomStringConvertible {
    /// A warning about the new identity (a key others can read, a certificate close to expiry).
    case identity(String)
    /// APNs keeps pushing with the previous client certificate: the new one is refused by the sender.
    case pushCredentialKept(PushError)

    package var description: String {
        switch self {
        case .identity(let warning): return warning
        case .pushCredentialKept(let error): return "APNs keeps the previous client certificate: \(error)"
        }
    }
}
