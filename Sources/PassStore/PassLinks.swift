import Foundation
import PassMint

/// A distribution link to store: the pass it opens and what the store keeps of its token (`LinkKey`: the
/// selector it is found by and the SHA-256 it is checked against). The token itself never reaches the store, so
/// a copy of the database does not give working links.
package struct PassLinkGrant: Sendable, Equatable {
    package var serialNumber: String
    package var key: LinkKey
    /// After this moment the link answers 404; nil: it does not expire.
    package var expiresAt: Date?

    package init(serialNumber: String, key: LinkKey, expiresAt: Date? = nil) {
        self.serialNumber = serialNumber
        self.key = key
        self.expiresAt = expiresAt
    }
}

/// Whether a link opens its pass right now.
package enum PassLinkState: String, Sendable, Equatable {
    case active, revoked, expired
}

/// A stored distribution link as the CLI and the admin API show it (never the token: only its hash is kept).
package struct PassLinkInfo: Sendable, Equatable {
    package var serialNumber: String
    /// When the current token was issued (whole seconds).
    package var createdAt: Date
    package var expiresAt: Date?
    package var revokedAt: Date?
    /// The state at the moment the store read it, by the store's clock.
    package var state: PassLinkState
    /// The pass is voided: whatever `state` says, the link answers 410 Gone (set by `LinkAdmin.show`).
    package var passVoided = false

    package init(serialNumber: String, createdAt: Date, expiresAt: Date?, revokedAt: Date?, state: PassLinkState) {
        self.serialNumber = serialNumber
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.state = state
    }

    /// The state of a link with these times at `nowSeconds`: revoked wins over expired.
    static func state(expiresAt: Int64?, revokedAt: Int64?, nowSeconds: Int64) -> PassLinkState {
        if revokedAt != nil { return .revoked }
        if let expiresAt, expiresAt <= nowSeconds { return .expired }
        return .active
    }

    /// A link read from a store row (seconds since 1970).
    static func row(serial: String, created: Int64, expires: Int64?, revoked: Int64?, nowSeconds: Int64)
        -> PassLinkInfo
    {
        PassLinkInfo(
            serialNumber: serial, createdAt: Date(timeIntervalSince1970: TimeInterval(created)),
            expiresAt: expires.map { Date(timeIntervalSince1970: TimeInterval($0)) },
            revokedAt: revoked.map { Date(timeIntervalSince1970: TimeInterval($0)) },
            state: state(expiresAt: expires, revokedAt: revoked, nowSeconds: nowSeconds))
    }
}

/// What `GET /p/:linkToken` needs to answer: the link's state and the current version of its pass, found in one
/// query, so a cached pass is served without reading the record.
package struct PassLinkTarget: Sendable, Equatable {
    package var serialNumber: String
    package var state: PassLinkState
    /// The pass's current update tag (the render cache's key).
    package var tag: Int64
    package var voided: Bool

    package init(serialNumber: String, state: PassLinkState, tag: Int64, voided: Bool) {
        self.serialNumber = serialNumber
        self.state = state
        self.tag = tag
        self.voided = voided
    }
}

/// The distribution links of stored passes (`pass_links`, one current link per pass), implemented by both stores.
///
/// A link is looked up by its token's selector through a unique index and accepted when its token's hash matches
/// (a token issued before selectors: by its hash alone, through an index of those links only). The secret part
/// of a token is never compared, so no comparison can leak how much of a guessed token was right.
package protocol PassLinkStore: Sendable {
    /// Stores `passes` as `insertPasses(_:)` does and, in the same transaction, their new links: a pass stored
    /// again with a link gets that link, and its earlier one stops working.
    func insertPasses(_ passes: [StoredPass], links: [PassLinkGrant]) throws
    /// The link of the token with this key; nil when there is none (an unknown token or a replaced one).
    func resolveLink(_ key: LinkKey) throws -> PassLinkInfo?
    /// The link of the token with this key with its pass's current tag and voided flag; nil when there is none.
    func openLink(_ key: LinkKey) throws -> PassLinkTarget?
    /// The current link of a pass; nil when it has none.
    func link(serial: String) throws -> PassLinkInfo?
    /// Gives the pass a new link (the old token stops working), not revoked, with the grant's expiry.
    /// - Throws: `StoreError.passNotFound` when no pass has this serial.
    func reissueLink(_ grant: PassLinkGrant) throws -> PassLinkInfo
    /// Revokes the pass's link (kept, so `show` can say when); nil when the pass has none.
    func revokeLink(serial: String) throws -> PassLinkInfo?
    /// Sets or clears (nil) when the pass's link expires; nil when the pass has none.
    func setLinkExpiry(serial: String, expiresAt: Date?) throws -> PassLinkInfo?
}
