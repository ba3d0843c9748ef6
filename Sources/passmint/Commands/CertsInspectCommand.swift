import Foundation
import PassSigning
import PassModel

/// `passmint certs inspect`: what a certificate / .p12 file is and whether a key matches it.
struct CertsInspectCommand: Command {
    static let key = Option<String>("key", "FILE", "private key (PEM) to test against the certificate")
    static let passwordEnv = Option<String>(
        "password-env", "VAR", "environment variable holding the .p12 password or key passphrase")
    static let wwdr = Option<String>("wwdr", "FILE", "WWDR intermediate for a .p12 that does not contain it")
    static let json = Flag("json", "print one JSON object")

    static let spec = CommandSpec(
        name: "certs inspect",
        abstract: "show what a certificate or .p12 is: pass type ID, team, issuer generation, expiry, key match",
        usage: "certs inspect FILE [--key FILE] [--password-env VAR] [--wwdr FILE] [--json]",
        discussion: """
            FILE is PEM (one or more certificates), DER (.cer) or PKCS#12 (.p12). Shows each certificate's subject,
            pass type ID, team, NFC, issuer and its WWDR generation (G4, G1, not Apple, PassMint development;
            intermediates are recognised by their SHA-256 fingerprint), validity and days to expiry, key type.
            --key tests whether a private key belongs to the first certificate. A .p12 from Keychain Access
            usually lacks the WWDR intermediate: pass it with --wwdr.
            Exit status: 0, or 1 when --key does not match or FILE is not a certificate.
            """,
        options: [
            key,
            passwordEnv,
            wwdr,
            json,
        ],
        positionals: 1...1,
        examples: [
            "passmint certs inspect Certificates/dev/pass-cert.pem --key Certificates/dev/pass-key.pem",
            "PASS_P12=secret passmint certs inspect pass.p12 --password-env PASS_P12 --wwdr AppleWWDRCAG4.cer",
        ]
    )

    let file: String
    let keyPath: String?
    let passwordVariable: String?
    let wwdrPath: String?
    let json: Bool

    init(_ args: ParsedArguments) throws(CLIError) {
        file = args.positionals[0]
        keyPath = args[Self.key]
        passwordVariable = args[Self.passwordEnv]
        wwdrPath = args[Self.wwdr]
        json = args[Self.json]
    }

    func run() throws(CLIError) -> Int32 {
        var password: String?
        if let passwordVariable {
            guard let value = ProcessInfo.processInfo.environment[passwordVariable] else {
                throw .environment("--password-env \(passwordVariable): the variable is not set; export it first")
            }
            password = value
        }
        let inspection: CertificateInspection
        do {
            inspection = try CertificateInspection.inspect(
                path: file, keyPath: keyPath, password: password, wwdrPath: wwdrPath)
        } catch {
            throw CLIError(error)
        }
        if json {
            print(JSONWriter.string(inspection.jsonValue, pretty: false))
        } else {
            print(Self.text(inspection), terminator: "")
        }
        return inspection.key?.matches == false ? 1 : 0
    }

    static func text(_ inspection: CertificateInspection) -> String {
        let count = inspection.entries.count
        var out = "\(inspection.file): \(inspection.format), \(count) certificate\(count == 1 ? "" : "s")\n"
        for entry in inspection.entries {
            let c = entry.certificate
            let days = inspection.daysToExpiry(c)
            let expiry =
                inspection.now > c.notAfter
                ? "EXPIRED \(-days) days ago" : "\(days) days left"
            var rows: [(String, String)] = [("subject", c.subject)]
            if entry.role == .passType {
                rows += [
                    ("pass type ID", c.passTypeIdentifier ?? "(none)"),
                    ("team ID", c.teamIdentifier ?? "(none)"),
                    ("NFC", c.isNFCEnabled ? "yes (Pass Type ID with NFC)" : "no"),
                    ("issuer", c.issuer),
                    ("issuer generation", entry.generation.rawValue),
                ]
            } else {
                rows += [("issuer", c.issuer), ("generation", entry.generation.rawValue)]
            }
            rows += [
                ("valid", "\(text(c.notBefore)) to \(text(c.notAfter)) (\(expiry))"),
                ("key type", c.publicKeyDescription),
                ("serial", c.serialNumberHex),
                ("SHA-256", c.sha256Fingerprint),
            ]
            out += "\(entry.role.rawValue):\n"
            for (label, value) in rows {
                out += "  " + label.padding(toLength: 18, withPad: " ", startingAt: 0) + value + "\n"
            }
        }
        if let key = inspection.key {
            out +=
                "key \(key.file) (\(key.type)): "
                + (key.matches ? "matches the certificate\n" : "DOES NOT match the certificate\n")
        }
        return out
    }

    private static func text(_ date: Date) -> String { DateText.utc(date) }
}
