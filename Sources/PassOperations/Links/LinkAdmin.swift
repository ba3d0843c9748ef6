import Foundation
import PassMint
import PassStore

/// `passmint links`: the state of a pass's distribution link, and revoking, reissuing and expiring it.
package enum LinkAdmin {
    /// The pass's current link.
    /// - Throws: `PassMintError.invalidInput` when no pass has this serial or it has no link.
    package static func show(serial: String, store: any PassStore & PassLinkStore) throws(PassMintError)
        -> PassLinkInfo
    {
        guard var info = try call(serial, { try store.link(serial: serial) }) else { throw try missing(serial, store) }
        info.passVoided = try call(serial, { try store.pass(serial: serial)?.voided }) ?? false
        return info
    }

    /// Revokes the link at once (it answers 404; reissue to give the holder a new one).
    package static func revoke(serial: String, store: any PassStore & PassLinkStore) throws(PassMintError)
        -> PassLinkInfo
    {
        guard let info = try call(serial, { try store.revokeLink(serial: serial) }) else {
            throw try missing(serial, store)
        }
        return info
    }

    /// A new link for the pass (the old one stops working), expiring at `expiresAt` when given.
    /// - Parameter linkBase: where the link starts; nil: at the pass's web service URL.
    /// - Throws: `PassMintError.invalidInput` for an unknown serial, or a pass with neither a web service URL
    ///   nor a link base.
    package static func reissue(
        serial: String, expiresAt: Date?, linkBase: String?, store: any PassStore & PassLinkStore
    ) throws(PassMintError) -> (link: PassLink, info: PassLinkInfo) {
        guard let pass = try call(serial, { try store.pass(serial: serial) }) else {
            throw .invalidInput("no stored pass has serial number \(serial)", about: .serial)
        }
        guard let base = linkBase ?? pass.webServiceURL else {
            throw .invalidInput(
                "pass \(serial) has no web service URL, so its link has no place to start; give a link base",
                about: .linkBase)
        }
        let link = PassLink(base: base, token: .generate())
        let info = try call(serial) {
            try store.reissueLink(PassLinkGrant(serialNumber: serial, tokenHash: link.token.hash, expiresAt: expiresAt))
        }
        return (link, info)
    }

    /// Sets when the link expires (`Date()` or earlier: it stops working now; nil: never).
    package static func expire(serial: String, at expiresAt: Date?, store: any PassStore & PassLinkStore)
        throws(PassMintError) -> PassLinkInfo
    {
        guard let info = try call(serial, { try store.setLinkExpiry(serial: serial, expiresAt: expiresAt) }) else {
            throw try missing(serial, store)
        }
        return info
    }

    private static func missing(_ serial: String, _ store: any PassStore) throws(PassMintError) -> PassMintError {
        guard try call(serial, { try store.pass(serial: serial) }) != nil else {
            return .invalidInput("no stored pass has serial number \(serial)", about: .serial)
        }
        return .invalidInput("pass \(serial) has no distribution link; reissue one")
    }

    /// Runs a store call; a store that fails is the machine's problem (exit 3), named with the pass.
    private static func call<T>(_ serial: String, _ body: () throws -> T) throws(PassMintError) -> T {
        do { return try body() } catch {
            throw .environment("the link of pass \(serial): the store failed: \(error)", about: .store)
        }
    }
}
