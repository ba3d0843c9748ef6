import Foundation
import PassMint
import PassSigning

/// Everything `passmint serve` runs: the store, the web service and the pusher, wired together.
public final class ServiceRunner: Sendable {
    /// What `serve` was asked for.
    public struct Options: Sendable {
        /// The SQLite file or the PostgreSQL database.
        public var store: StoreLocation
        public var configuration: ServiceConfiguration
        public var apnsURL: String
        public var apnsCAFile: String?
        public var identity: IdentityOptions
        /// Roots accepted in place of Apple's when the identity's chain is checked at start.
        public var trustRoots: TrustRoots

        public init(
            store: StoreLocation, configuration: ServiceConfiguration, apnsURL: String, apnsCAFile: String?,
            identity: IdentityOptions, trustRoots: TrustRoots = .none
        ) {
            self.trustRoots = trustRoots
            self.store = store
            self.configuration = configuration
            self.apnsURL = apnsURL
            self.apnsCAFile = apnsCAFile
            self.identity = identity
        }
    }

    public let service: WalletService
    public let pusher: Pusher
    public let store: any PassStore & PushOutbox & BulkChangeStore & UpdateJobStore
    /// Things to log at start: a private key readable by others, a certificate close to expiry.
    public let warnings: [String]

    /// Checks the admin token, opens the store, loads the identity and builds the service and the pusher
    /// (nothing listens yet).
    /// - Parameter environment: where the admin token variable is looked up.
    /// - Throws: `PassMintError.environment` naming the variable (never the token) when the admin token is too
    ///   short, or the file or URL that could not be used.
    public init(options: Options, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(PassMintError)
    {
        // Refused before the store is created or opened: a misconfigured service leaves nothing behind.
        do {
            _ = try AdminToken.load(from: environment, variable: options.configuration.adminTokenVariable)
        } catch {
            throw .environment("\(error)")
        }
        let identity = try options.identity.load()
        warnings = options.identity.warnings(for: identity, trust: options.trustRoots)
        store = try StoreAccess.open(options.store, serving: true)
        let renderer = TemplateRenderer(identity: identity)
        let signer = PassSigner(identity: identity)
        let metrics = Metrics()
        let credential = APNsConfiguration.Credential.pemData(
            certificate: identity.certificate.pemBytes, key: identity.privateKeyPEM())
        do {
            pusher = try Pusher(
                outbox: store,
                configuration: APNsConfiguration(
                    baseURL: options.apnsURL, credential: credential, caFile: options.apnsCAFile),
                onResult: { metrics.recordPush(result: $0) })
        } catch {
            throw .environment("APNs at \(options.apnsURL): \(error)")
        }
        let pusher = self.pusher
        // Pushes queued by another instance or by `passmint update` are sent now, not at the next poll.
        (store as? PostgresStore)?.onPushesQueued { pusher.wake() }
        do {
            service = try WalletService(
                configuration: options.configuration, store: store, renderer: renderer,
                recordValidator: { pass, changes in try renderer.validate(pass, changes: changes) },
                tokenSigner: { token in try signer.sign(token) }, metrics: metrics, environment: environment,
                onRecordUpdated: { _, _ in pusher.wake() },
                updateJobs: UpdateJobRunner(store: store, checker: renderer, onChunk: { pusher.wake() }))
        } catch {
            throw .environment("starting the service: \(error)")
        }
    }

    /// Starts listening and pushing.
    public func start() throws(PassMintError) {
        do {
            try service.start()
        } catch {
            throw .environment("\(error)")  // ServiceError.serverStart names the address and what to change
        }
        pusher.start()
    }

    /// Stops the server (in-flight requests finish) and the pusher (its current round finishes).
    public func stop() {
        service.stop()
        pusher.stop()
    }
}
