import PassModel
import Foundation
import PassSigning

/// The certificates inside a pass signature: a Pass Type ID signer issued by the embedded, pinned Apple WWDR
/// intermediate, both valid now and at signing time, matching pass.json, NFC-enabled when needed.
enum CertificateChecks {
    /// - Returns: true when the signer is a PassMint development certificate.
    static func check(
        leaf: Certificate, embedded: [Certificate], signingTime: Date?, facts: PassFacts, now: Date,
        trust: TrustRoots = .none, into findings: inout Findings
    ) -> Bool {
        let isDevelopment = AppleWWDR.isDevelopmentSigner(leaf)
        if isDevelopment {
            findings.note(
                "development pass: signed with a PassMint development certificate (passmint certs dev); "
                    + "fine for tests, but no iPhone will add it")
        }
        checkPassType(leaf, into: &findings)
        let intermediates = embedded.filter { $0 != leaf }
        let issuing = intermediates.first { leaf.isIssued(by: $0) }
        checkChain(
            leaf: leaf, intermediates: intermediates, issuing: issuing, isDevelopment: isDevelopment,
            trust: trust, into: &findings)

        var validWhenMade = true
        validWhenMade =
            checkDates(
                leaf, role: "the Pass Type ID certificate (\(leaf.commonName ?? leaf.subject))",
                expiredCode: VerifyCode.certificateExpired, signingTime: signingTime, now: now, into: &findings)
            && validWhenMade
        for intermediate in issuing.map({ [$0] }) ?? intermediates {
            validWhenMade =
                checkDates(
                    intermediate,
                    role: "the WWDR intermediate (\(intermediate.commonName ?? intermediate.subject)"
                        + (intermediate.organizationalUnit.map { ", OU=\($0)" } ?? "") + ")",
                    expiredCode: VerifyCode.certificateIntermediateExpired, signingTime: signingTime, now: now,
                    into: &findings) && validWhenMade
        }
        if let signingTime, validWhenMade {
            let expiredNow =
                findings.has(VerifyCode.certificateExpired)
                || findings.has(VerifyCode.certificateIntermediateExpired)
            let chainBroken =
                findings.has(VerifyCode.certificateWrongIntermediate)
                || findings.has(VerifyCode.certificateNoIntermediate)
            if chainBroken {
                findings.note(
                    "the certificates were within their validity at the signing time "
                        + "\(DateText.utc(signingTime)), but the chain is broken (see above)")
            } else if expiredNow {
                findings.note(
                    "signature was valid when made (signing time \(DateText.utc(signingTime))); "
                        + "the certificates have expired since, so Wallet refuses the pass today")
            }
        }
        if leaf.isValid(at: now) {
            let days = Int(leaf.notAfter.timeIntervalSince(now) / 86_400)
            findings.note("signer certificate valid until \(DateText.utc(leaf.notAfter)) (\(days) days from now)")
        }
        checkIdentity(leaf, facts: facts, into: &findings)
        return isDevelopment
    }

    private static func checkPassType(_ leaf: Certificate, into findings: inout Findings) {
        let namedLikePassType = leaf.commonName?.hasPrefix("Pass Type ID") ?? false
        if !leaf.hasPassTypeExtension && !leaf.hasPassEKU && !namedLikePassType {
            findings.error(
                VerifyCode.certificateNotPassType,
                "the signer (\(leaf.subject)) is not a Pass Type ID certificate: it has neither the pass-type "
                    + "extension 1.2.840.113635.100.6.1.16 nor the pass EKU; create a Pass Type ID certificate in "
                    + "Apple's developer portal", path: "signature")
        }
    }

    private static func checkChain(
        leaf: Certificate, intermediates: [Certificate], issuing: Certificate?,
        isDevelopment: Bool, trust: TrustRoots, into findings: inout Findings
    ) {
        let claimed = AppleWWDR.claimedGeneration(ofIssuerOf: leaf)
        let generation: WWDRGeneration
        if let issuing {
            generation = AppleWWDR.generation(ofIntermediate: issuing)
        } else if intermediates.isEmpty {
            findings.error(
                VerifyCode.certificateNoIntermediate,
                "the signature embeds no intermediate certificate; include the WWDR intermediate that issued the "
                    + "signer (its issuer is \(leaf.issuer)\(hint(claimed)))", path: "signature")
            generation = claimed
        } else {
            let embedded = intermediates.map { "\($0.subject) [\(AppleWWDR.generation(ofIntermediate: $0).rawValue)]" }
            findings.error(
                VerifyCode.certificateWrongIntermediate,
                "the embedded intermediate did not issue the signer: the signer's issuer is \(leaf.issuer)"
                    + " (\(claimed.rawValue)), the signature embeds " + embedded.joined(separator: "; ")
                    + "; re-sign with the intermediate that issued your certificate\(hint(claimed))",
                path: "signature")
            generation = claimed
        }
        guard !generation.isApplePassIntermediate else { return }
        if let root = trust.root(for: leaf, intermediate: issuing) {
            findings.note(
                "the chain leads to the trusted root \(root.certificate.subject) (from \(root.file)), "
                    + "accepted in place of Apple's for this check; iPhones still accept only Apple-issued passes")
            return
        }
        if isDevelopment {
            findings.warning(
                VerifyCode.certificateNotApple,
                "the chain leads to the PassMint development intermediate, not Apple's WWDR; sign with your "
                    + "Apple Pass Type ID certificate before giving the pass to anyone", path: "signature")
        } else if issuing != nil || generation != .otherApple {
            let named = issuing.map { " (\($0.subject), SHA-256 \($0.sha256Fingerprint))" } ?? ""
            findings.error(
                VerifyCode.certificateNotApple,
                "the signer's chain does not lead to a known Apple WWDR intermediate\(named); iPhones only accept "
                    + "passes signed with a Pass Type ID certificate issued by Apple WWDR G4", path: "signature")
        }
    }

    private static func hint(_ generation: WWDRGeneration) -> String {
        switch generation {
        case .g4: return "; OU=G4 means AppleWWDRCAG4.cer"
        case .g1, .g1Original: return "; that is the old WWDR, which has expired — renew the certificate (G4)"
        default: return ""
        }
    }

    /// Reports expiry against `now` and validity at `signingTime`; returns whether it was valid at signing.
    private static func checkDates(
        _ certificate: Certificate, role: String, expiredCode: ProblemCode, signingTime: Date?,
        now: Date, into findings: inout Findings
    ) -> Bool {
        if now > certificate.notAfter {
            findings.error(
                expiredCode,
                "\(role) expired on \(DateText.utc(certificate.notAfter)); Wallet refuses passes signed with an "
                    + "expired certificate — sign with a current one", path: "signature")
        } else if now < certificate.notBefore {
            findings.error(
                VerifyCode.certificateNotYetValid,
                "\(role) is not valid before \(DateText.utc(certificate.notBefore)); check the clock or wait",
                path: "signature")
        }
        guard let signingTime else { return false }
        if certificate.isValid(at: signingTime) { return true }
        findings.error(
            VerifyCode.certificateInvalidWhenSigned,
            "\(role) was not valid at the signing time \(DateText.utc(signingTime)) (valid "
                + "\(DateText.utc(certificate.notBefore)) to \(DateText.utc(certificate.notAfter)))", path: "signature")
        return false
    }

    private static func checkIdentity(_ leaf: Certificate, facts: PassFacts, into findings: inout Findings) {
        if let passType = facts.passTypeIdentifier, let certified = leaf.passTypeIdentifier, passType != certified {
            findings.error(
                VerifyCode.certificatePassTypeMismatch,
                "pass.json says passTypeIdentifier \"\(passType)\" but the signing certificate is for "
                    + "\"\(certified)\"; they must be equal", path: "passTypeIdentifier")
        }
        if let team = facts.teamIdentifier, let certified = leaf.teamIdentifier, team != certified {
            findings.error(
                VerifyCode.certificateTeamMismatch,
                "pass.json says teamIdentifier \"\(team)\" but the signing certificate's team (OU) is "
                    + "\"\(certified)\"; they must be equal", path: "teamIdentifier")
        }
        if let reason = facts.nfcRequirement, !leaf.isNFCEnabled {
            findings.error(
                VerifyCode.certificateNFCRequired,
                "the pass has \(reason) but is signed with a certificate without NFC (CN \"\(leaf.commonName ?? "")\""
                    + "); Wallet refuses it — sign with a \"Pass Type ID with NFC\" certificate or remove \(reason)",
                path: reason == "personalization.json" ? "personalization.json" : "nfc")
        }
    }
}
