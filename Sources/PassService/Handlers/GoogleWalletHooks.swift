import PassGoogle
import PassStore

/// What the web service needs to serve Google Wallet: the verifier of Google's callbacks and the maker of a
/// pass's save link. `serve` builds them from the service account, the issuer ID and Google's root keys.
package struct GoogleWalletHooks: Sendable {
    /// Verifies a callback body and returns its event; nil when no root keys were given (callbacks get 404).
    package var verifyCallback: (@Sendable ([UInt8]) throws(GoogleCallbackError) -> GoogleCallbackEvent)?
    /// A fresh "Save to Google Wallet" URL for a stored pass; the pass's object is linked so that `serve` keeps
    /// it current from then on.
    package var saveLink: @Sendable (StoredPass) throws -> String

    package init(
        verifyCallback: (@Sendable ([UInt8]) throws(GoogleCallbackError) -> GoogleCallbackEvent)?,
        saveLink: @escaping @Sendable (StoredPass) throws -> String
    ) {
        self.verifyCallback = verifyCallback
        self.saveLink = saveLink
    }
}
