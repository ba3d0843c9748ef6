import Foundation

/// Google Wallet test helpers: a service-account key file made in the test (an RSA key in Google's JSON format)
/// and `Tests/Tools/google-wallet-check.py`, which verifies links and validates resources with Google's own
/// libraries (google-auth, cryptography, google-api-python-client's walletobjects.v1.json) from the venv
/// scripts/install-deps makes.
public enum GoogleWalletSupport {
    /// The venv's Python; tests skip without it.
    public static let python = "/opt/passmint-pyenv/bin/python"
    /// True when the venv holds the libraries the checker needs.
    public static let available: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python),
            let result = try? CLI.run(python, ["-c", "import googleapiclient, google.auth, cryptography"])
        else { return false }
        return result.status == 0
    }()
    /// An issuer ID of the Google Pay & Wallet Console's form.
    public static let issuerID = "3388000000022000000"
    public static let clientEmail = "wallet@passmint-test.iam.gserviceaccount.com"

    /// Writes a service-account key file (mode 0600) with a new 2048-bit RSA key into `directory`.
    /// - Returns: its path.
    public static func makeKeyFile(in directory: TempDir, name: String = "service-account.json") throws -> String {
        let pem = directory.path("sa-key.pem")
        let made = try CLI.run(
            "openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", pem])
        guard made.status == 0 else { throw SupportError("openssl genpkey failed: \(made.stderr)") }
        let key = try String(contentsOfFile: pem, encoding: .utf8)
        let json: [String: String] = [
            "type": "service_account", "project_id": "passmint-test",
            "private_key_id": String(repeating: "ab", count: 20),
            "private_key": key, "client_email": clientEmail, "client_id": "104000000000000000001",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": "https://oauth2.googleapis.com/token",
            "universe_domain": "googleapis.com",
        ]
        let data = try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
        let path = directory.path(name)
        FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600])
        try FileManager.default.removeItem(atPath: pem)
        return path
    }

    /// What the checker found: `ok`, its errors, and the JWT's claims (for links).
    public struct Check {
        public let ok: Bool
        public let errors: [String]
        /// The JWT's claims (empty for resources).
        public let claims: [String: Any]
        /// The payload's objects (of whatever kind), in order.
        public var objects: [[String: Any]] { payloadEntries(suffix: "Objects") }
        /// The payload's classes.
        public var classes: [[String: Any]] { payloadEntries(suffix: "Classes") }

        private func payloadEntries(suffix: String) -> [[String: Any]] {
            let payload = claims["payload"] as? [String: Any] ?? [:]
            return payload.filter { $0.key.hasSuffix(suffix) }.flatMap { $0.value as? [[String: Any]] ?? [] }
        }
    }

    /// Verifies a save link (signature with the key file's public key, claims) and validates its payload.
    public static func checkLink(_ url: String, keyFile: String) throws -> Check {
        try check(["link", url, "--key", keyFile])
    }

    /// Validates one class or object against the discovery document.
    public static func checkResource(kind: String, part: String, json: Data, in directory: TempDir) throws -> Check {
        let path = directory.path("resource-\(UUID().uuidString).json")
        FileManager.default.createFile(atPath: path, contents: json)
        return try check(["resource", kind, part, path])
    }

    private static func check(_ args: [String]) throws -> Check {
        let script = PackagePaths.root.appendingPathComponent("Tests/Tools/google-wallet-check.py").path
        let result = try CLI.run(python, [script] + args)
        guard let object = try JSONSerialization.jsonObject(with: Data(result.output)) as? [String: Any] else {
            throw SupportError("google-wallet-check.py printed no JSON: \(result.stderr)")
        }
        return Check(
            ok: object["ok"] as? Bool ?? false, errors: object["errors"] as? [String] ?? [],
            claims: object["claims"] as? [String: Any] ?? [:])
    }

    public struct SupportError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
