import Foundation
import PassModel

/// `passmint certs inspect`: what a certificate file (PEM, DER or .p12) holds, and whether a key matches it.
public struct CertificateInspection: Sendable {
    /// What a certificate is for; its raw value is how output names it.
    public enum Role: String, Sendable {
        case passType = "Pass Type ID certificate"
        case intermediate = "WWDR intermediate"
        case root = "root CA"
        case other = "certificate"
    }

    /// One certificate of the file, with the facts that matter for passes.
    public struct Entry: Sendable {
        public var role: Role
        public var certificate: Certificate
        /// For a Pass Type ID certificate: the generation of its issuer (by name, or by the pinned fingerprint of
        /// the intermediate in the same file). For an intermediate: its own generation by fingerprint.
        public var generation: WWDRGeneration
    }

    /// The file inspected.
    public var file: String
    /// "PEM", "DER" or "PKCS#12".
    public var format: String
    /// The certificates, Pass Type ID certificate first.
    public var entries: [Entry]
    /// The private key given with --key (or found in the .p12): its type, and whether it matches the first
    /// certificate.
    public var key: (file: String, type: String, matches: Bool)?
    /// The moment expiry is judged against.
    public var now: Date

    /// Reads a certificate file (`inspect(path:…)` in PassMint words its errors for the CLI).
    /// - Parameters:
    ///   - path: a PEM (one or more certificates), DER (.cer) or PKCS#12 (.p12/.pfx) file.
    ///   - keyPath: a private key to test against the first certificate.
    ///   - password: the .p12 password or the key's passphrase (default: empty).
    ///   - wwdrPath: the WWDR intermediate, for a .p12 that does not contain it.
    /// - Throws: `SigningError.fileUnreadable` when a file is missing, another `SigningError` when one cannot be
    ///   parsed.
    package static func read(
        path: String, keyPath: String? = nil, password: String? = nil,
        wwdrPath: String? = nil, now: Date = Date()
    ) throws(SigningError) -> CertificateInspection {
        let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
        let lower = path.lowercased()
        var inspection = CertificateInspection(file: path, format: "PEM", entries: [], key: nil, now: now)
        if lower.hasSuffix(".p12") || lower.hasSuffix(".pfx") || looksLikePKCS12(bytes) {
            inspection.format = "PKCS#12"
            let bundle = try PKCS12Bundle.load(path: path, password: password ?? "")
            let wwdr = try wwdrPath.map { (p: String) throws(SigningError) in try Certificate.load(path: p) }
            inspection.entries = classify(
                [bundle.certificate] + bundle.extraCertificates + (wwdr.map { [$0] } ?? []))
            inspection.key = (path, "private key inside the .p12", bundle.key.matches(bundle.certificate))
        } else {
            let certificates = try Certificate.loadAll(path: path)
            inspection.format = isPEM(bytes) ? "PEM" : "DER"
            inspection.entries = classify(certificates)
        }
        if let keyPath, let first = inspection.entries.first?.certificate {
            guard FileManager.default.isReadableFile(atPath: keyPath) else {
                throw SigningError.fileUnreadable(path: keyPath, reason: "no such readable file")
            }
            let key = try PrivateKey.load(path: keyPath, password: password)
            inspection.key = (keyPath, key.keyDescription, key.matches(first))
        }
        return inspection
    }

    /// Pass Type ID certificates first, then intermediates, then roots, each with its generation.
    static func classify(_ certificates: [Certificate]) -> [Entry] {
        let leaves = certificates.filter { !$0.isCertificateAuthority }
        let cas = certificates.filter(\.isCertificateAuthority)
        var entries: [Entry] = []
        for leaf in leaves {
            let issuing = cas.first { leaf.isIssued(by: $0) }
            let generation =
                issuing.map(AppleWWDR.generation(ofIntermediate:))
                ?? AppleWWDR.claimedGeneration(ofIssuerOf: leaf)
            let isPassType =
                leaf.hasPassTypeExtension || leaf.hasPassEKU
                || (leaf.commonName?.hasPrefix("Pass Type ID") ?? false)
            entries.append(
                Entry(
                    role: isPassType ? .passType : .other, certificate: leaf,
                    generation: generation))
        }
        for ca in cas {
            let selfSigned = ca.subject == ca.issuer
            entries.append(
                Entry(
                    role: selfSigned ? .root : .intermediate, certificate: ca,
                    generation: AppleWWDR.generation(ofIntermediate: ca)))
        }
        return entries
    }

    /// Whole days from `now` to the certificate's end of validity (negative once expired).
    public func daysToExpiry(_ certificate: Certificate) -> Int {
        Int((certificate.notAfter.timeIntervalSince(now) / 86_400).rounded(.down))
    }

    /// The `--json` form: `{"file", "format", "certificates": [...], "key": {...} or null}`.
    public var jsonValue: JSONValue {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        let certificates: [JSONValue] = entries.map { entry in
            let c = entry.certificate
            let isLeaf = !c.isCertificateAuthority
            return .object([
                "role": .string(entry.role.rawValue),
                "subject": .string(c.subject),
                "issuer": .string(c.issuer),
                "passTypeIdentifier": isLeaf ? optional(c.passTypeIdentifier) : .null,
                "teamIdentifier": isLeaf ? optional(c.teamIdentifier) : .null,
                "nfc": .bool(c.isNFCEnabled),
                "wwdrGeneration": .string(entry.generation.rawValue),
                "notBefore": .string(DateText.utc(c.notBefore)),
                "notAfter": .string(DateText.utc(c.notAfter)),
                "daysToExpiry": .integer(Int64(daysToExpiry(c))),
                "expired": .bool(now > c.notAfter),
                "keyType": .string(c.publicKeyDescription),
                "serialNumber": .string(c.serialNumberHex),
                "sha256Fingerprint": .string(c.sha256Fingerprint),
            ])
        }
        let keyValue: JSONValue =
            key.map { key in
                .object(["file": .string(key.file), "type": .string(key.type), "matches": .bool(key.matches)])
            } ?? .null
        return .object([
            "file": .string(file), "format": .string(format), "certificates": .array(certificates), "key": keyValue,
        ])
    }

    private static func isPEM(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes.prefix(64 * 1024), as: UTF8.self).contains("-----BEGIN")
    }

    /// A DER SEQUENCE whose first element is INTEGER 3 (the PFX version) — how a .p12 starts.
    private static func looksLikePKCS12(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 8, bytes[0] == 0x30 else { return false }
        var index = 1
        if bytes[1] & 0x80 != 0 { index += Int(bytes[1] & 0x7F) }
        index += 1
        return index + 2 < bytes.count && bytes[index] == 0x02 && bytes[index + 1] == 0x01 && bytes[index + 2] == 0x03
    }
}
