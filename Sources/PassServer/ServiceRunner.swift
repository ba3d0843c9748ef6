import Foundation
import PassMint
import PassSigning
import Synchronization
import PassPhotos
import PassStore
import PassPush
import PassGoogle
import PassOperations
import PassService
import PassLog

/// Everything `passmint serve` runs: the store, the web service and the pusher, wired together.
package final class ServiceRunner: Sendable {
    /// What `serve` was asked for.
    package struct Options: Sendable {
        /// The SQLite file or the PostgreSQL database.
        package var store: StoreLocation
        package var configuration: ServiceConfiguration
        package var apnsURL: String
        package var apnsCAFile: String?
        package var identity: IdentityOptions
        /// Roots accepted in place of Apple's when the identity's chain is checked at start.
        package var trustRoots: TrustRoots
        /// An APNs auth key for the pass types of its team (nil: certificates only, the default).
        package var apnsToken: APNsTokenOptions?
        /// More Pass Type ID identities whose certificates push for their own pass types.
        package var pushIdentities: [IdentityOptions]
        /// Google Wallet: nil serves Apple Wallet only.
        package var google: GoogleServeOptions?

        package init(
            store: StoreLocation, configuration: ServiceConfiguration, apnsURL: String, apnsCAFile: String?,
            identity: IdentityOptions, trustRoots: TrustRoots = .none, apnsToken: APNsTokenOptions? = nil,
            pushIdentities: [IdentityOptions] = [], google: GoogleServeOptions? = nil
        ) {
            self.trustRoots = trustRoots
            self.apnsToken = apnsToken
            self.pushIdentities = pushIdentities
            self.google = google
            self.store = store
            self.configuration = configuration
            self.apnsURL = apnsURL
            self.apnsCAFile = apnsCAFile
            self.identity = identity
        }
    }

    package let service: WalletService
    package let pusher: Pusher
    /// Keeps Google Wallet objects and classes current; nil without Google options.
    package let googleWorker: GoogleWorker?
    package let store: any ServiceStore
    /// Signs every pass download; its identity is replaced by `reloadIdentity()`.
    package let renderer: TemplateRenderer
    /// Things to log at start: a private key readable by others, a certificate close to expiry.
    package let warnings: [String]
    /// Which pass types push how (token or certificate), said at start.
    package let pushPlan: PushPlan
    private let options: Options
    private let metrics: Metrics
    /// Reloads run one at a time (a second SIGHUP waits for the first).
    private let reloading = Mutex(())
    private let expiryCheck = Mutex<Task<Void, Never>?>(nil)

    /// Apple's production APNs host: it takes pushes only from a certificate issued under Apple's WWDR.
    static let productionAPNsHost = "api.push.apple.com"

    /// A warning when pushes go to Apple's production APNs with a certificate that does not chain to Apple's WWDR
    /// (such as the development chain `certs dev` makes): APNs refuses every one of them.
    static func productionPushWarnings(apnsURL: String, identity: SigningIdentity) -> [String] {
        guard URL(string: apnsURL)?.host?.lowercased() == productionAPNsHost,
            !AppleWWDR.generation(ofIntermediate: identity.wwdr).isApplePassIntermediate
        else { return [] }
        return [
            "pushes go to Apple's production APNs (\(productionAPNsHost)), but the signing certificate "
                + "\(identity.certificate.subject) was issued by \(identity.wwdr.subject), not by Apple's WWDR (a "
                + "development chain): APNs will refuse every push; sign with your Apple Pass Type ID certificate, "
                + "or send pushes to a test server"
        ]
    }

    /// Checks the admin token, opens the store, loads the identity and builds the service and the pusher
    /// (nothing listens yet).
    /// - Parameter environment: where the admin token variable is looked up.
    /// - Throws: `ServerError.adminToken` naming the variable (never the token) when the admin token is too
    ///   short; the file or URL that could not be used.
    package init(options: Options, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(ServerError)
    {
        // Refused before the store is created or opened: a misconfigured service leaves nothing behind.
        do {
            _ = try AdminToken.load(from: environment, variable: options.configuration.adminTokenVariable)
        } catch {
            throw .adminToken(error)
        }
        let identity: SigningIdentity
        do { identity = try options.identity.load() } catch { throw .pipeline(error) }
        self.options = options
        var warnings =
            options.identity.warnings(for: identity, trust: options.trustRoots)
            + Self.productionPushWarnings(apnsURL: options.apnsURL, identity: identity)
            + (options.configuration.tls?.keyFileWarning.map { [$0] } ?? [])
        let store: any ServiceStore
        do { store = try StoreAccess.open(options.store, serving: true) } catch { throw .store(error) }
        self.store = store
        let renderer = TemplateRenderer(identity: identity, templates: store, photos: PhotoScaler())
        self.renderer = renderer
        let metrics = Metrics()
        self.metrics = metrics
        metrics.setSigningCertificate(notAfter: identity.certificate.notAfter)
        let credential = APNsConfiguration.Credential.pemData(
            certificate: identity.certificate.pemBytes, key: identity.privateKeyPEM())
        var apns = APNsConfiguration(baseURL: options.apnsURL, credential: credential, caFile: options.apnsCAFile)
        let pushCertificates = try Self.pushCertificates(options, signing: identity)
        apns.certificates = pushCertificates.credentials
        if let token = options.apnsToken {
            let loaded = try token.load(
                passTypesOfTeam: { team in
                    Set(pushCertificates.certificates.filter { $0.value.teamIdentifier == team }.keys)
                })
            apns.token = loaded.authentication
            warnings += loaded.warnings
        }
        let storedPassTypes: [String]
        do {
            storedPassTypes = Array(try store.passTypeCounts().keys)
        } catch {
            throw .readingPassTypes(underlying: error)
        }
        pushPlan = PushPlan.make(
            configuration: apns,
            passTypes: Set(storedPassTypes + Array(pushCertificates.certificates.keys)),
            certificates: pushCertificates.certificates, defaultCertificate: identity.certificate)
        do {
            var pusherOptions = Pusher.Options()
            pusherOptions.eventsPerPass = options.configuration.events?.perPass
            pusher = try Pusher(
                outbox: store, configuration: apns, options: pusherOptions,
                onAnswer: { metrics.recordPush(result: $0.outcome.label, reason: $0.reason?.description) })
        } catch {
            throw .push(apnsURL: options.apnsURL, error)
        }
        let pusher = self.pusher
        var google: GoogleServeSetup?
        if let googleOptions = options.google {
            google = try GoogleServeSetup(
                options: googleOptions, store: store, renderer: renderer, linkBase: options.configuration.linkBase,
                metrics: metrics, environment: environment)
        }
        googleWorker = google?.worker
        warnings += google?.warnings ?? []
        self.warnings = warnings
        let googleWorker = self.googleWorker
        // Pushes queued by another instance or by `passmint update` are sent now, not at the next poll.
        store.onPushesQueued {
            pusher.wake()
            googleWorker?.wake()
        }
        do {
            service = try WalletService(
                configuration: options.configuration, store: store, renderer: renderer,
                recordValidator: { pass, change in try renderer.validate(pass, change: change) },
                personalization: PersonalizationSigning(
                    isPersonalizable: { pass in renderer.isPersonalizable(pass) },
                    sign: { token in try renderer.sign(token) }),
                metrics: metrics, environment: environment,
                onRecordUpdated: { _, _ in
                    pusher.wake()
                    googleWorker?.wake()
                },
                updateJobs: UpdateJobRunner(
                    store: store, checker: renderer,
                    onChunk: {
                        pusher.wake()
                        googleWorker?.wake()
                    }), google: google?.hooks)
        } catch {
            throw .service(underlying: error)
        }
    }

    /// The certificate of every pass type this instance pushes for: the signing identity's and those of
    /// `options.pushIdentities`, by pass type identifier, with their client credentials (the signing identity's
    /// is `APNsConfiguration.credential` itself).
    private static func pushCertificates(_ options: Options, signing: SigningIdentity) throws(ServerError) -> (
        certificates: [String: Certificate], credentials: [String: APNsConfiguration.Credential]
    ) {
        var certificates: [String: Certificate] = [:]
        var credentials: [String: APNsConfiguration.Credential] = [:]
        if let passType = signing.certificate.passTypeIdentifier { certificates[passType] = signing.certificate }
        for identityOptions in options.pushIdentities {
            let name = identityOptions.certificateName
            let identity: SigningIdentity
            do { identity = try identityOptions.load() } catch { throw .pushIdentity(name: name, .load(error)) }
            guard let passType = identity.certificate.passTypeIdentifier else {
                throw .pushIdentity(name: name, .noPassType)
            }
            guard certificates[passType] == nil else { throw .pushIdentity(name: name, .secondForPassType(passType)) }
            certificates[passType] = identity.certificate
            credentials[passType] = .pemData(
                certificate: identity.certificate.pemBytes, key: identity.privateKeyPEM())
        }
        return (certificates, credentials)
    }

    /// Starts listening and pushing, and checks the signing certificate's expiry once a day from now on
    /// (`log` receives the warning line while it expires within 30 days).
    package func start(log: (@Sendable (String) -> Void)? = nil) throws(ServerError) {
        let log = log ?? { ServiceLog.error($0) }
        do {
            try service.start()
        } catch {
            throw .listen(error)  // HTTPServerError.serverStart names the address and what to change
        }
        pusher.start()
        googleWorker?.start()
        let daily = Task.detached { [renderer] in
            while true {
                try? await Task.sleep(for: .seconds(86_400))
                if Task.isCancelled { return }
                if let warning = renderer.identity.expiryWarning() { log("warning: \(warning)") }
            }
        }
        expiryCheck.withLock { $0 = daily }
    }

    /// Stops the server (in-flight requests finish), the pusher (its current round finishes) and the daily check.
    package func stop() {
        expiryCheck.withLock { $0?.cancel() }
        service.stop()
        pusher.stop()
        googleWorker?.stop()
    }

    /// Loads the signing identity again from the same files (renewed in place or repointed by a link) and, when it
    /// passes the renewal check against the identity in use and every pass type in the store, signs every download
    /// from now on with it and pushes with it as APNs client certificate. Nothing changes when it is refused.
    /// - Returns: warnings about the new identity, as at start (a certificate expiring within 30 days, a private
    ///   key file others can read), and whether APNs kept the previous client certificate.
    /// - Throws: `ServerError` saying why the new identity was refused; the one in use stays.
    package func reloadIdentity(now: Date = Date()) throws(ServerError) -> [ReloadNote] {
        try reloading.withLock { _ throws(ServerError) in
            let current = renderer.identity.certificate
            let identity: SigningIdentity
            do throws(PassMintError) { identity = try options.identity.load() } catch { throw .pipeline(error) }
            let passTypes: [String]
            do {
                passTypes = Array(try store.passTypeCounts().keys) + [current.passTypeIdentifier].compactMap { $0 }
            } catch {
                throw .readingPassTypes(underlying: error)
            }
            let check = IdentityRenewalCheck(
                storedPassTypes: passTypes,
                expectedTeam: current.teamIdentifier.map {
                    ($0, "the certificate in use, serial \(current.serialNumberHex)")
                },
                trust: options.trustRoots)
            do throws(IdentityRenewalCheck.Refusal) {
                _ = try check.check(identity, name: options.identity.certificateName, now: now)
            } catch {
                throw .pipeline(.renewalRefused(error, about: options.identity.certificateInput))
            }
            // What start-up says about an identity (a key others can read, a certificate close to expiry).
            let warnings = options.identity.warnings(for: identity, trust: options.trustRoots, now: now).map {
                ReloadNote.identity($0)
            }
            renderer.replaceIdentity(identity)
            service.signingIdentityReplaced()
            metrics.setSigningCertificate(notAfter: identity.certificate.notAfter)
            do throws(PushError) {
                try pusher.replaceCredential(
                    .pemData(certificate: identity.certificate.pemBytes, key: identity.privateKeyPEM()))
            } catch {
                return warnings + [.pushCredentialKept(error)]
            }
            return warnings
        }
    }
}
