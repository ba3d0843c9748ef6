import Foundation
import PassMint
import PassStore

/// `passmint links`: the state of a pass's distribution link, and revoking, reissuing and expiring it.
package enum LinkAdmin {
    /// The pass's current link.
    /// - Throws: `OperationError.passNotFound` or `.noLink` when no pass has this serial or it has no link.
    package static func show(serial: String, store: any PassStore & PassLinkStore) throws(OperationError)
        -> PassLinkInfo
    {
        guard var info = try call(serial, { try store.link(serial: serial) }) else { throw try missing(serial, store) }
        info.passVoided = try call(serial, { try store.pass(serial: serial)?.voided }) ?? false
        return info
    }

    /// Revokes the link at once (it answers 404; reissue to give the holder a new one).
    package static func revoke(serial: String, store: any PassStore & PassLinkStore) throws(OperationError)
        -> PassLinkInfo
    {
        guard let info = try call(serial, { try store.revokeLink(serial: serial) }) else {
            throw try missing(serial, store)
        }
        return info
    }

    /// A new link for the pass (the old one stops working), expiring at `expiresAt` when given.
    /// - Parameter linkBase: where the link starts; nil: at the pass's web service URL.
    /// - Throws: `OperationError.passNotFound` for an unknown serial, `.noLinkBase` for a pass with neither a
    ///   web service URL nor a link base.
    package static func reissue(
        serial: String, expiresAt: Date?, linkBase: String?, store: any PassStore & PassLinkStore
    ) throws(OperationError) -> (link: PassLink, info: PassLinkInfo) {
        guard let pass = try call(serial, { try store.pass(serial: serial) }) else {
            throw .passNotFound(serial: serial, about: .serial)
        }
        guard let base = linkBase ?? pass.webServiceURL else {
            throw .noLinkBase(serial: serial)
        }
        let link = PassLink(base: base, token: .generate())
        let info = try call(serial) {
            try store.reissueLink(PassLinkGrant(serialNumber: serial, key: link.token.key, expiresAt: expiresAt))
        }
        return (link, info)
    }

    /// Sets when the link expires (`Date()` or earlier: it stops working now; nil: never).
    package static func expire(serial: String, at expiresAt: Date?, store: any PassStore & PassLinkStore)
        throws(OperationError) -> PassLinkInfo
    {
        guard let info = try call(serial, { try store.setLinkExpiry(serial: serial, expiresAt: expiresAt) }) else {
            throw try missing(serial, store)
        }
        return info
    }

    private static func missing(_ serial: String, _ store: any PassStore) throws(OperationError) -> OperationError {
        guard try call(serial, { try store.pass(serial: serial) }) != nil else {
            return .passNotFound(serial: serial, about: .serial)
        }
        return .noLink(serial: serial)
    }

    /// Runs a store call; a store that fails is the machine's problem (exit 3), named with the pass.
    private static func call<T>(_ serial: String, _ body: () throws -> T) throws(OperationError) -> T {
        do { return try body() } catch {
            throw .store(.link(serial: serial), underlying: error)
        }
    }
}
