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
    /// The APNs auth key (`.p8`) at `path`, or its key or team ID, cannot be used.
    case apnsKey(path: String, APNsKeyProblem)
    /// A push certificate of another pass type cannot be used; `name` is its certificate file.
    case pushIdentity(name: String, PushIdentityProblem)
    /// The Google Wallet identity (service-account key file, issuer ID) cannot be used.
    case googleIdentity(GoogleError)
    /// Google's callback root keys file cannot be used.
    case googleRootKeys(GoogleCallbackError)

    /// Whether the input or the machine is at fault.
    package var category: PassMintError.Category {
        switch self {
        case .pipeline(let error), .pushIdentity(_, .load(let error)): return error.category
        case .apnsKey(_, .notES256), .apnsKey(_, .invalid), .pushIdentity: return .invalidInput
        default: return .environment
        }
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
        case .apnsKey(let path, .unreadable): return "\(path): no such readable file (the APNs auth key, a .p8)"
        case .apnsKey(let path, .notES256(let error)): return "\(path): \(error)"
        case .apnsKey(let path, .invalid(let error)): return "the APNs auth key \(path): \(error)"
        case .pushIdentity(_, .load(let error)): return error.description
        case .pushIdentity(let name, .noPassType):
            return "\(name) names no pass type identifier (no UID); push certificates must be Pass Type ID certificates"
        case .pushIdentity(let name, .secondForPassType(let passType)):
            return "\(name) is a second certificate for \(passType); give one per pass type"
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
