import PassModel
import Synchronization

/// `GoogleResourceInserter` over the Wallet API: inserts a class or an object now, in the caller's thread (one
/// call at a time; `serve` uses it when a save link would be too long to carry the class or the object).
/// An answer that the resource exists (409) counts as inserted.
package final class GoogleAPIInserter: GoogleResourceInserter {
    private let client: Mutex<GoogleWalletClient?>
    private let identity: GoogleIdentity
    private let configuration: GoogleAPIConfiguration
    private let tokens: GoogleAccessTokens

    package init(identity: GoogleIdentity, configuration: GoogleAPIConfiguration, tokens: GoogleAccessTokens) {
        self.identity = identity
        self.configuration = configuration
        self.tokens = tokens
        client = Mutex(nil)
    }

    package func insertClass(_ pass: GooglePass) throws(GoogleError) {
        try insert(pass.kind.classResource, pass.classJSON)
    }

    package func insertObject(_ pass: GooglePass) throws(GoogleError) {
        try insert(pass.kind.objectResource, pass.objectJSON)
    }

    private func insert(_ segment: String, _ json: JSONValue)
        throws(GoogleError)
    {
        let failure: GoogleAPIError? = client.withLock { client -> GoogleAPIError? in
            do throws(GoogleAPIError) {
                if client == nil {
                    client = try GoogleWalletClient(identity: identity, configuration: configuration, tokens: tokens)
                }
                _ = try client!.insert(segment, json)
                return nil
            } catch .conflict {
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw .api(failure) }
    }
}
