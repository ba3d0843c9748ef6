import Foundation
import PassSigning

/// Whether a renewed signing identity can take over from the current one for the passes already issued.
///
/// Re-signing stored passes with a certificate Wallet refuses would break every pass on every phone at once, so
/// the new identity is refused unless it certifies every pass type in the store, belongs to the same team, chains
/// to a WWDR intermediate that leads to Apple (or PassMint's development root, or a trusted root) and is valid.
/// Loading the identity already refused a key that does not match its certificate and an intermediate that did
/// not issue it.
public struct IdentityRenewalCheck: Sendable {
    /// The pass type identifiers of the stored passes; each must be the new certificate's.
    public var storedPassTypes: [String]
    /// The team the passes belong to (the current certificate's), with where it came from; nil: not compared.
    public var expectedTeam: (identifier: String, source: String)?
    /// Roots accepted in place of Apple's for the chain.
    public var trust: TrustRoots
    /// A certificate expiring sooner than this many days is accepted with a warning.
    public var warningDays: Int

    public init(
        storedPassTypes: [String], expectedTeam: (identifier: String, source: String)?, trust: TrustRoots = .none,
        warningDays: Int = 30
    ) {
        self.storedPassTypes = storedPassTypes
        self.expectedTeam = expectedTeam
        self.trust = trust
        self.warningDays = warningDays
    }

    /// Why a new identity was refused. Each message names the certificate and what to do.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// Stored passes have pass types the certificate is not for.
        case passTypeNotCovered(certificate: String, certified: String?, uncovered: [String])
        /// The certificate's team (OU) is not the passes' team.
        case teamMismatch(certificate: String, certified: String?, expected: String, source: String)
        /// The intermediate leads neither to Apple's WWDR, nor PassMint's development root, nor a trusted root.
        case untrustedChain(certificate: String, intermediate: String)
        /// The certificate is past its end of validity, or not valid yet.
        case notValidNow(certificate: String, notBefore: Date, notAfter: Date)

        public var description: String {
            switch self {
            case .passTypeNotCovered(let certificate, let certified, let uncovered):
                return "the new certificate \(certificate) is for pass type \(certified ?? "(none)") but the store "
                    + "holds passes of " + uncovered.joined(separator: ", ")
                    + "; renew the Pass Type ID certificate of each of those pass types"
            case .teamMismatch(let certificate, let certified, let expected, let source):
                return "the new certificate \(certificate) belongs to team \(certified ?? "(none)") but the passes "
                    + "belong to team \(expected) (\(source)); a pass cannot change team — use a certificate of "
                    + "team \(expected)"
            case .untrustedChain(let certificate, let intermediate):
                return "the new certificate \(certificate) chains to \(intermediate), which is not Apple's WWDR and "
                    + "leads to no trusted root; no iPhone would accept passes signed with it — give the Apple WWDR "
                    + "intermediate that issued it"
            case .notValidNow(let certificate, let notBefore, let notAfter):
                return "the new certificate \(certificate) is valid only from \(DateText.utc(notBefore)) to "
                    + "\(DateText.utc(notAfter)); Wallet refuses passes signed outside that — use a current one"
            }
        }

        /// Equal by kind, as tests match them.
        public static func == (lhs: Refusal, rhs: Refusal) -> Bool {
            switch (lhs, rhs) {
            case (.passTypeNotCovered(_, _, let a), .passTypeNotCovered(_, _, let b)): return a == b
            case (.teamMismatch, .teamMismatch), (.untrustedChain, .untrustedChain), (.notValidNow, .notValidNow):
                return true
            default: return false
            }
        }
    }

    /// Checks `identity`; returns the warnings worth saying (a certificate expiring within `warningDays`).
    /// - Parameter name: how messages name the certificate (its file).
    /// - Throws: the first `Refusal` that applies.
    public func check(_ identity: SigningIdentity, name: String, now: Date = Date()) throws(Refusal) -> [String] {
        let certificate = identity.certificate
        guard certificate.isValid(at: now) else {
            throw .notValidNow(certificate: name, notBefore: certificate.notBefore, notAfter: certificate.notAfter)
        }
        let certified = certificate.passTypeIdentifier
        let uncovered = Set(storedPassTypes).filter { $0 != certified }.sorted()
        guard uncovered.isEmpty else {
            throw .passTypeNotCovered(certificate: name, certified: certified, uncovered: uncovered)
        }
        if let expectedTeam, certificate.teamIdentifier != expectedTeam.identifier {
            throw .teamMismatch(
                certificate: name, certified: certificate.teamIdentifier, expected: expectedTeam.identifier,
                source: expectedTeam.source)
        }
        let generation = AppleWWDR.generation(ofIntermediate: identity.wwdr)
        let trusted =
            generation.isApplePassIntermediate || generation == .passMintDevelopment
            || trust.root(for: certificate, intermediate: identity.wwdr) != nil
        guard trusted else { throw .untrustedChain(certificate: name, intermediate: identity.wwdr.subject) }
        return identity.expiryWarning(now: now, days: warningDays).map { [$0] } ?? []
    }
}
