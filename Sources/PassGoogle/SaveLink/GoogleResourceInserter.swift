/// Inserts a class or an object through the Google Wallet API, so that a save link can carry less than both (a
/// link longer than `GoogleSaveLink.maxJWTLength` is cut by browsers and mail clients). Implemented over the
/// Wallet API client; an answer that the resource already exists (409) counts as inserted.
public protocol GoogleResourceInserter: Sendable {
    /// Makes sure `pass.classJSON` exists at Google.
    func insertClass(_ pass: GooglePass) throws(GoogleError)
    /// Makes sure `pass.objectJSON` exists at Google (its class already does).
    func insertObject(_ pass: GooglePass) throws(GoogleError)
}
