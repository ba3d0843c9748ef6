import Foundation
import Synchronization

/// The provider token of one instance, shared by all of its APNs connections: made on first use, kept until
/// `renewAfter` has passed, then replaced. APNs refuses a token renewed more often than every 20 minutes
/// (`TooManyProviderTokenUpdates`) and one older than an hour (`ExpiredProviderToken`), so `renewAfter` lies in
/// between; an `ExpiredProviderToken` answer renews it at once (`renew(replacing:)`), once per token.
package final class ProviderTokenSource: Sendable {
    /// Shortest time a token is kept: APNs refuses more frequent renewals.
    package static let minimumLifetime: TimeInterval = 20 * 60
    /// Longest time a token is kept: APNs expires tokens after an hour; five minutes spare for clock skew.
    package static let maximumLifetime: TimeInterval = 55 * 60

    /// One signed token and which one it is.
    package struct Token: Sendable, Equatable {
        /// The JWT sent as `authorization: bearer …`; never logged.
        package let jwt: String
        /// Counts the tokens this source made (1 for the first).
        package let generation: Int
        /// Its `iat`, whole seconds since 1970.
        package let issuedAt: Int64
    }

    package let key: APNsTokenKey
    private let renewAfter: TimeInterval
    private let clock: @Sendable () -> Date
    private let current = Mutex<Token?>(nil)

    /// - Parameters:
    ///   - renewAfter: how long a token is used, from 20 to 55 minutes (default 50).
    ///   - clock: the time tokens are issued and aged by (tests move it instead of waiting).
    /// - Throws: `PushError.invalidSetting` when `renewAfter` is outside 20-55 minutes.
    package init(
        key: APNsTokenKey, renewAfter: TimeInterval = 50 * 60, clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(PushError) {
        guard renewAfter >= Self.minimumLifetime, renewAfter <= Self.maximumLifetime else {
            throw .invalidSetting(name: "provider token lifetime (seconds, 1200-3300)", value: "\(Int(renewAfter))")
        }
        self.key = key
        self.renewAfter = renewAfter
        self.clock = clock
    }

    /// The token to send now: the current one while it is younger than `renewAfter`, else a new one.
    /// - Throws: `PushError.tokenSigning`.
    package func token() throws(PushError) -> Token {
        let now = Int64(clock().timeIntervalSince1970)
        return try current.withLock { (token: inout Token?) throws(PushError) -> Token in
            if let token, TimeInterval(now - token.issuedAt) < renewAfter, now >= token.issuedAt { return token }
            let made = Token(
                jwt: try key.providerToken(issuedAt: now), generation: (token?.generation ?? 0) + 1, issuedAt: now)
            token = made
            return made
        }
    }

    /// Replaces the token of `generation` (APNs answered `ExpiredProviderToken` to it) with a new one; when it was
    /// replaced already (another answer to the same token came first), returns the token in use.
    /// - Throws: `PushError.tokenSigning`.
    package func renew(replacing generation: Int) throws(PushError) -> Token {
        let now = Int64(clock().timeIntervalSince1970)
        return try current.withLock { (token: inout Token?) throws(PushError) -> Token in
            if let token, token.generation != generation { return token }
            let made = Token(
                jwt: try key.providerToken(issuedAt: now), generation: (token?.generation ?? 0) + 1, issuedAt: now)
            token = made
            return made
        }
    }
}
