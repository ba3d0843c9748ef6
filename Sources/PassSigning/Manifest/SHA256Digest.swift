internal import COpenSSL

/// SHA-256 for callers above the signing layer (the service stores distribution link tokens only as this hash).
public enum SHA256Digest {
    static let sha256 = FetchedDigest(name: "SHA256")

    /// Lowercase hex SHA-256 of `bytes` (64 characters).
    public static func hex(_ bytes: [UInt8]) -> String {
        sha256.digest(bytes).lowercaseHex
    }
}
