import Foundation
import PassGoogle
import PassMint
import PassOperations
import PassService
import PassStore

/// What `serve` is told about Google Wallet.
package struct GoogleServeOptions: Sendable {
    /// The service-account key file; nil: `GOOGLE_APPLICATION_CREDENTIALS`.
    package var keyPath: String?
    /// nil: `PASSMINT_GOOGLE_ISSUER_ID`.
    package var issuerID: String?
    /// Where the Wallet API and the token endpoint are (Google's by default).
    package var api: GoogleAPIConfiguration
    /// Google's callback root keys (the JSON of https://pay.google.com/gp/m/issuer/keys); nil: no callbacks.
    package var rootKeysPath: String?
    /// Where images are published for Google; nil: the link base, else each pass's web service URL.
    package var imageBase: String?

    package init(
        keyPath: String?, issuerID: String?, api: GoogleAPIConfiguration, rootKeysPath: String?, imageBase: String?
    ) {
        self.keyPath = keyPath
        self.issuerID = issuerID
        self.api = api
        self.rootKeysPath = rootKeysPath
        self.imageBase = imageBase
    }
}

/// The Google side of `serve`, wired: the outbox worker and the web service's hooks (save links, callbacks).
struct GoogleServeSetup {
    let worker: GoogleWorker
    let hooks: GoogleWalletHooks
    /// What start-up says about the Google identity (a key file others can read).
    let warnings: [String]

    /// - Throws: `ServerError.googleIdentity` or `.googleRootKeys` (exit 3) when the identity or the root keys
    ///   cannot be used, naming the file or variable and never the key.
    init(
        options: GoogleServeOptions, store: any ServiceStore, renderer: TemplateRenderer, linkBase: String?,
        metrics: Metrics, environment: [String: String]
    ) throws(ServerError) {
        let identity: GoogleIdentity
        do {
            identity = try GoogleIdentity.load(
                keyPath: options.keyPath, issuerID: options.issuerID, environment: environment)
        } catch {
            throw .googleIdentity(error)
        }
        warnings = identity.warnings
        var verifier: GoogleCallbackVerifier?
        if let path = options.rootKeysPath {
            do {
                verifier = GoogleCallbackVerifier(
                    issuerID: identity.issuerID, rootKeys: try GoogleRootKeys.load(path: path))
            } catch {
                throw .googleRootKeys(error)
            }
        }
        let source = StoredGoogleSource(
            renderer: renderer, store: store, issuerID: identity.issuerID, imageBase: options.imageBase ?? linkBase)
        let tokens = GoogleAccessTokens(account: identity.account, tokenURL: options.api.tokenURL)
        worker = GoogleWorker(
            store: store, source: source, identity: identity, configuration: options.api,
            onResult: { metrics.recordGoogle(result: $0) })
        let maker = GoogleLinkMaker(
            source: source, store: store, identity: identity,
            inserter: GoogleAPIInserter(identity: identity, configuration: options.api, tokens: tokens))
        var verify: (@Sendable ([UInt8]) throws(GoogleCallbackError) -> GoogleCallbackEvent)?
        if let verifier {
            verify = { body throws(GoogleCallbackError) in try verifier.verify(body) }
        }
        hooks = GoogleWalletHooks(verifyCallback: verify, saveLink: { pass in try maker.saveURL(pass) })
    }
}
