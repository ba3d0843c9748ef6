import Foundation

/// Which intermediate issued a Pass Type ID certificate.
public enum WWDRGeneration: String, Sendable, CaseIterable {
    /// Apple WWDR G4 (valid to 2030-12-10): every pass certificate issued since 27 January 2022.
    case g4 = "G4"
    /// Apple's first WWDR renewal (2016, expired 2023-02-07), shown as "G1".
    case g1 = "G1"
    /// The original Apple WWDR (expired 2016-02-14), the predecessor of G1.
    case g1Original = "G1 (original, expired 2016-02-14)"
    /// Another Apple WWDR generation (G2, G3, G5, G6…), not used for passes.
    case otherApple = "another Apple WWDR generation (not used for passes)"
    /// The PassMint development intermediate made by `passmint certs dev`.
    case passMintDevelopment = "PassMint development"
    /// Anything else: no iPhone accepts the pass.
    case notApple = "not Apple"

    /// True for the three pinned Apple intermediates that have signed pass certificates.
    public var isApplePassIntermediate: Bool { self == .g4 || self == .g1 || self == .g1Original }
}

/// Apple's WWDR intermediates pinned by SHA-256 fingerprint (from Apple's published certificates).
public enum AppleWWDR {
    /// SHA-256 fingerprint ("AB:CD:…", uppercase) → generation.
    public static let pinned: [String: WWDRGeneration] = [
        "EA:47:57:88:55:38:DD:8C:B5:9F:F4:55:6F:67:60:87:D8:3C:85:E7:09:02:C1:22:E4:2C:08:08:B5:BC:E1:4C": .g4,
        "CE:05:76:91:D7:30:F8:9C:A2:5E:91:6F:73:35:F4:C8:A1:57:13:DC:D2:73:A6:58:C0:24:02:3F:8E:B8:09:C2": .g1,
        "64:B3:02:91:3F:11:CA:1B:68:06:09:3B:76:CA:DE:7F:7B:12:3B:E0:C0:49:24:FD:A8:7F:5F:4E:86:47:F0:51": .g1Original,
    ]

    static let wwdrCommonName = "Apple Worldwide Developer Relations Certification Authority"
    static let developmentOrganization = "PassMint Development CA"
    static let developmentCommonName = "PassMint Development WWDR"
    /// The day the original WWDR expired and its G1 renewal took over.
    static let g1RenewalDate = Date(timeIntervalSince1970: 1_455_476_195)  // 2016-02-14T18:56:35Z

    /// The generation of an intermediate certificate itself: by pinned fingerprint, or PassMint development
    /// by its subject; anything else is `.notApple` (a certificate merely named like Apple's is not Apple's).
    public static func generation(ofIntermediate certificate: Certificate) -> WWDRGeneration {
        if let pinned = pinned[certificate.sha256Fingerprint.uppercased()] { return pinned }
        if certificate.organization == developmentOrganization, certificate.commonName == developmentCommonName {
            return .passMintDevelopment
        }
        return .notApple
    }

    /// The generation a leaf certificate's issuer name claims (no intermediate at hand, nothing verified).
    public static func claimedGeneration(ofIssuerOf leaf: Certificate) -> WWDRGeneration {
        let issuer = NameParts(leaf.issuer)
        if issuer["O"] == developmentOrganization, issuer["CN"] == developmentCommonName {
            return .passMintDevelopment
        }
        guard issuer["O"] == "Apple Inc.", issuer["CN"] == wwdrCommonName else { return .notApple }
        switch issuer["OU"] {
        case "G4": return .g4
        case "Apple Worldwide Developer Relations", nil:
            return leaf.notBefore < g1RenewalDate ? .g1Original : .g1
        default: return .otherApple
        }
    }

    /// True when the leaf's issuer is the PassMint development intermediate (O=PassMint Development CA,
    /// CN=PassMint Development WWDR).
    public static func isDevelopmentSigner(_ leaf: Certificate) -> Bool {
        claimedGeneration(ofIssuerOf: leaf) == .passMintDevelopment
    }
}

/// Attribute lookup in a one-line distinguished name ("C=US, O=Apple Inc., OU=G4, CN=…", RFC 2253 escaping).
struct NameParts {
    private var values: [(key: String, value: String)] = []

    init(_ oneLine: String) {
        var current = ""
        var escaped = false
        var parts: [String] = []
        for character in oneLine {
            if escaped { current.append(character); escaped = false; continue }
            if character == "\\" { escaped = true; continue }
            if character == "," || character == "+" { parts.append(current); current = ""; continue }
            current.append(character)
        }
        parts.append(current)
        for part in parts {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard let eq = trimmed.firstIndex(of: "=") else { continue }
            values.append((String(trimmed[..<eq]), String(trimmed[trimmed.index(after: eq)...])))
        }
    }

    subscript(key: String) -> String? { values.first { $0.key == key }?.value }
}
