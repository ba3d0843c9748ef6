import Foundation
import PassGoogle
import PassStore

/// Save links made at click time (`/p/{token}` on Android, the landing page's Google button): signed now, so they
/// carry the pass as it is now. A pass whose object Google holds gets a reference to it (short, and Google shows
/// its current state); otherwise the link carries the object, with its class while both fit, the class inserted
/// through the API first when they do not. The pass's object is linked in the store, so `serve` keeps it current.
package struct GoogleLinkMaker: Sendable {
    let source: StoredGoogleSource
    let store: any ServiceStore
    let identity: GoogleIdentity
    let inserter: any GoogleResourceInserter
    /// Web origins allowed to show Google's save button.
    let origins: [String]

    package init(
        source: StoredGoogleSource, store: any ServiceStore, identity: GoogleIdentity,
        inserter: any GoogleResourceInserter, origins: [String] = []
    ) {
        self.source = source
        self.store = store
        self.identity = identity
        self.inserter = inserter
        self.origins = origins
    }

    /// The save URL of `pass`.
    /// - Throws: `GoogleSourceError` when the pass cannot be mapped, `GoogleError` when signing or an insert
    ///   fails, the store's errors.
    package func saveURL(_ pass: StoredPass, now: Date = Date()) throws -> String {
        let google = try source.object(for: pass, delivered: nil).pass
        let state = try store.googleObject(serial: pass.serialNumber)
        if state?.objectID != google.objectID {
            try store.linkGoogleObjects(
                [GoogleObjectLink(serialNumber: pass.serialNumber, objectID: google.objectID)], queue: false)
        }
        let issued = Int64(now.timeIntervalSince1970)
        func make(_ content: GoogleSaveLink.Content) throws(GoogleError) -> String {
            try GoogleSaveLink.make(
                google, content: content, account: identity.account, origins: origins, issuedAt: issued
            ).url
        }
        if state?.objectID == google.objectID, state?.inserted == true { return try make(.objectReference) }
        do {
            return try make(.classAndObject)
        } catch .linkNeedsInsert {
            try inserter.insertClass(google)
        }
        do {
            return try make(.object)
        } catch .linkNeedsInsert {
            try inserter.insertObject(google)
            try store.markGoogleObjectInserted(serial: pass.serialNumber)
            return try make(.objectReference)
        }
    }
}
