import Foundation
import PassSigning

/// The signature file: present, CMS, verifies over the exact manifest bytes, has a signingTime; then the
/// certificates it carries (see `CertificateChecks`).
enum SignatureChecks {
    /// - Returns: true when the signer is a PassMint development certificate.
    static func check(
        _ pass: PassFiles, manifest: [UInt8]?, facts: PassFacts, now: Date, trust: TrustRoots,
        into findings: inout Findings
    ) -> Bool {
        guard let signature = pass["signature"] else {
            if pass.unreadable.contains("signature") { return false }
            findings.error(
                VerifyCode.signatureMissing,
                "there is no signature file; Wallet only opens signed passes — sign manifest.json with your "
                    + "Pass Type ID certificate (passmint generate does this)", path: "signature")
            return false
        }
        guard let manifest else { return false }  // manifest.missing is already reported
        let report: SignatureReport
        do {
            report = try SignatureReport.inspect(signature: signature, content: manifest)
        } catch {
            findings.error(
                VerifyCode.signatureInvalid,
                "the signature file is not a DER PKCS#7/CMS SignedData structure (\(error.description))",
                path: "signature")
            return false
        }
        if report.signerCount == 0 {
            findings.error(
                VerifyCode.signatureInvalid,
                "the signature has no signer; sign manifest.json with the Pass Type ID certificate", path: "signature")
            return false
        }
        if !report.digestValid {
            findings.error(
                VerifyCode.signatureInvalid,
                "the signature does not verify over the bytes of manifest.json ("
                    + (report.verificationError ?? "no reason given")
                    + "); the manifest was changed after signing or the signature belongs to another pass — re-sign",
                path: "signature")
        }
        if report.signerCount > 1 {
            findings.warning(
                VerifyCode.signatureInvalid,
                "the signature has \(report.signerCount) signers; Wallet expects exactly one (the Pass Type ID "
                    + "certificate)", path: "signature")
        }
        if !report.isDetached {
            findings.warning(
                VerifyCode.signatureNotDetached,
                "the signature carries the manifest inside it; Wallet expects a detached signature "
                    + "(openssl smime -sign -binary without -nodetach)", path: "signature")
        }
        if report.signingTime == nil {
            findings.error(
                VerifyCode.signatureNoSigningTime,
                "the signature has no signingTime attribute; Apple requires it — sign with OpenSSL's default "
                    + "signed attributes (passmint does)", path: "signature")
        }
        guard let leaf = report.signer else {
            findings.error(
                VerifyCode.signatureInvalid,
                "the signer's certificate is not embedded in the signature; include the Pass Type ID certificate",
                path: "signature")
            return false
        }
        return CertificateChecks.check(
            leaf: leaf, embedded: report.embeddedCertificates, signingTime: report.signingTime, facts: facts,
            now: now, trust: trust, into: &findings)
    }
}
