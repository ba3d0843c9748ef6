import Foundation
import PassGoogle
import PassMintTestSupport
import Testing

/// Loading the service-account key file and the issuer ID: each bad file is named with what to do, and no error
/// or warning holds the key.
@Suite("Google identity: the service-account key file and the issuer ID")
struct GoogleIdentityTests {
    static let issuer = GoogleWalletSupport.issuerID

    /// The key file's JSON (with a key made for the test) with `member` replaced by what `value` makes of that key's
    /// PEM (nil removes it).
    func keyFile(
        _ dir: TempDir, replacing member: String? = nil, with value: (String) -> String? = { _ in nil },
        mode: Int = 0o600
    ) throws -> (path: String, pem: String) {
        let good = try GoogleWalletSupport.makeKeyFile(in: dir, name: "good.json")
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: good))) as? [String: Any])
        let pem = try #require(json["private_key"] as? String)
        if let member { json[member] = value(pem) }
        let path = dir.path("key.json")
        FileManager.default.createFile(
            atPath: path, contents: try JSONSerialization.data(withJSONObject: json),
            attributes: [.posixPermissions: mode])
        return (path, pem)
    }

    /// The base64 lines of a PEM key: none may appear in any text PassMint makes.
    func keyLines(_ pem: String) -> [String] {
        pem.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") }
    }

    @Test("a good key file loads: email, key ID, token URI, and it signs")
    func loads() throws {
        let dir = try TempDir()
        let (path, pem) = try keyFile(dir)
        let identity = try GoogleIdentity.load(keyPath: path, issuerID: Self.issuer, environment: [:])
        #expect(identity.issuerID == Self.issuer)
        #expect(identity.account.clientEmail == GoogleWalletSupport.clientEmail)
        #expect(identity.account.tokenURI == "https://oauth2.googleapis.com/token")
        #expect(identity.warnings.isEmpty)
        let description = "\(identity.account)"
        for line in keyLines(pem) { #expect(!description.contains(line)) }
    }

    @Test("the key file and issuer ID come from the environment when no option names them")
    func environment() throws {
        let dir = try TempDir()
        let (path, _) = try keyFile(dir)
        let identity = try GoogleIdentity.load(
            environment: ["GOOGLE_APPLICATION_CREDENTIALS": path, "PASSMINT_GOOGLE_ISSUER_ID": " \(Self.issuer)\n"])
        #expect(identity.issuerID == Self.issuer)
        #expect(identity.account.path == path)
        #expect(throws: GoogleError.noKeyFile) {
            try GoogleIdentity.load(environment: ["PASSMINT_GOOGLE_ISSUER_ID": Self.issuer])
        }
        #expect(throws: GoogleError.noIssuerID) {
            try GoogleIdentity.load(environment: ["GOOGLE_APPLICATION_CREDENTIALS": path])
        }
        #expect(throws: GoogleError.invalidIssuerID(value: "wallet-issuer")) {
            try GoogleIdentity.load(keyPath: path, issuerID: "wallet-issuer", environment: [:])
        }
    }

    struct BadFile: Sendable, CustomStringConvertible {
        let name: String
        /// The key file's member replaced (nil: the file is absent) and its new value, made from the test key's PEM
        /// (nil removes it).
        let member: String?
        let value: @Sendable (String) -> String?
        /// Whether the error is the one expected for the file at the path.
        let matches: @Sendable (GoogleError, String) -> Bool
        var description: String { name }
    }

    static let badFiles: [BadFile] = [
        BadFile(name: "missing file", member: nil, value: { _ in nil }) {
            $0 == .keyFileUnreadable(path: $1, reason: "no such file")
        },
        BadFile(name: "not a service account", member: "type", value: { _ in "authorized_user" }) {
            $0 == .keyFileInvalid(path: $1, member: "type", expected: "\"service_account\"")
        },
        BadFile(name: "no client_email", member: "client_email", value: { _ in nil }) {
            $0 == .keyFileInvalid(path: $1, member: "client_email", expected: "present")
        },
        BadFile(name: "private_key not PEM", member: "private_key", value: keyBodyWithoutArmour) {
            $0 == .keyFileInvalid(path: $1, member: "private_key", expected: "a PEM private key")
        },
        BadFile(name: "private_key PEM that OpenSSL cannot read", member: "private_key", value: truncatedKey) {
            error, path in
            guard case .privateKeyInvalid(let named, _) = error else { return false }
            return named == path
        },
    ]

    /// The first base64 line of the test key, without its PEM armour.
    @Sendable static func keyBodyWithoutArmour(_ pem: String) -> String? {
        pem.split(separator: "\n").first { !$0.hasPrefix("-----") }.map(String.init)
    }

    /// The test key's armour around its first body line only: PEM, but too short to be a key.
    @Sendable static func truncatedKey(_ pem: String) -> String? {
        let lines = pem.split(separator: "\n")
        guard let begin = lines.first, let end = lines.last, lines.count > 3 else { return nil }
        return [begin, lines[1], end].joined(separator: "\n") + "\n"
    }

    @Test("a bad key file is refused naming the file and what to fix, never quoting the key", arguments: badFiles)
    func badFile(_ c: BadFile) throws {
        let dir = try TempDir()
        var (path, pem) = try keyFile(dir, replacing: c.member, with: c.value)
        if c.member == nil { path = dir.path("absent.json") }
        let error = try #require(
            throws: GoogleError.self,
            performing: { try GoogleIdentity.load(keyPath: path, issuerID: Self.issuer, environment: [:]) })
        #expect(c.matches(error, path), "\(error)")
        #expect(error.description.contains(path))
        #expect(!error.description.contains("PRIVATE"))
        for line in keyLines(pem) { #expect(!error.description.contains(line)) }
    }

    @Test("a key file that is not JSON is named with the position only")
    func notJSON() throws {
        let dir = try TempDir()
        let path = try dir.write(Array("{\"type\": \"service_account\", \"private_key\": \"-----BEGIN".utf8), "k.json")
        let error = try #require(
            throws: GoogleError.self,
            performing: { try GoogleIdentity.load(keyPath: path, issuerID: Self.issuer, environment: [:]) })
        guard case .keyFileNotJSON(let named, let line, _) = error else {
            Issue.record("expected keyFileNotJSON, got \(error)")
            return
        }
        #expect(named == path && line == 1)
        #expect(!error.description.contains("BEGIN"))
    }

    @Test("an EC key is refused: save links are RS256")
    func ecKey() throws {
        let dir = try TempDir()
        let pemPath = dir.path("ec.pem")
        let made = try CLI.run(
            "openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", pemPath])
        #expect(made.status == 0)
        let ec = try String(contentsOfFile: pemPath, encoding: .utf8)
        let (path, _) = try keyFile(dir, replacing: "private_key", with: { _ in ec })
        let error = try #require(
            throws: GoogleError.self,
            performing: { try GoogleIdentity.load(keyPath: path, issuerID: Self.issuer, environment: [:]) })
        guard case .privateKeyInvalid(let named, let openSSL) = error else {
            Issue.record("expected privateKeyInvalid, got \(error)")
            return
        }
        #expect(named == path && openSSL.contains("not RSA"))
        for line in keyLines(ec) { #expect(!error.description.contains(line)) }
    }

    @Test("a key file others can read loads with a warning that says how to fix it", arguments: [0o644, 0o640])
    func loosePermissions(_ mode: Int) throws {
        let dir = try TempDir()
        let (path, pem) = try keyFile(dir, mode: mode)
        let identity = try GoogleIdentity.load(keyPath: path, issuerID: Self.issuer, environment: [:])
        let warning = try #require(identity.warnings.first)
        #expect(identity.warnings.count == 1)
        #expect(warning.contains(path) && warning.contains("chmod 600"))
        #expect(warning.contains(mode == 0o644 ? "readable by others" : "readable by its group"))
        for line in keyLines(pem) { #expect(!warning.contains(line)) }
    }
}
