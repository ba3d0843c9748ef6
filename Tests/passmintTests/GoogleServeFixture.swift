import Foundation
import Testing
import PassMintTestSupport

/// `serve --google` against the local HTTPS stand-in of the Wallet API (Tests/Tools/google-wallet-standin.py):
/// a service-account key and callback root keys made for the test, the stand-in (which checks the OAuth assertion
/// with the key's public half and validates every body against Google's discovery document), and `serve` on a
/// fresh store aimed at it. Every process is stopped on `stop()` and on deinit.
final class GoogleServeFixture {
    static let tools = CLI.root.appendingPathComponent("Tests/Tools")
    static let standInScript = tools.appendingPathComponent("google-wallet-standin.py").path
    static let callbackScript = tools.appendingPathComponent("google-callback.py").path
    static let loyalty = CLI.root.appendingPathComponent("Templates/loyalty").path
    static let issuer = GoogleWalletSupport.issuerID
    static let skipReason = Comment(
        rawValue: "needs the venv of scripts/install-deps (/opt/passmint-pyenv: google-api-python-client, cryptography)"
    )

    let tmp: TempDir
    let keyFile: String
    /// The callback keys (root.pem, intermediate.pem, root-keys.json).
    let callbackKeys: String
    let tls: TestServerCertificate
    let standIn: ManagedProcess
    let standInPort: Int
    let standInLog: String
    let control: String
    let serve: ServeFixture
    var environment: [String: String] {
        ["GOOGLE_APPLICATION_CREDENTIALS": keyFile, "PASSMINT_GOOGLE_ISSUER_ID": Self.issuer]
    }
    var standInBase: String { "https://127.0.0.1:\(standInPort)" }

    /// - Parameter serveOptions: more options for `serve`.
    /// - Parameter fixedPort: serve keeps one port across restarts (the passes' web service URL, where Google
    ///   fetches their images, stays valid); otherwise a free one, new at each restart.
    init(postgres: String? = nil, serveOptions: [String] = [], fixedPort: Bool = false) throws {
        tmp = try TempDir()
        keyFile = try GoogleWalletSupport.makeKeyFile(in: tmp)
        callbackKeys = tmp.path("callback-keys")
        let keys = try CLI.run(GoogleWalletSupport.python, [Self.callbackScript, "keys", callbackKeys])
        guard keys.status == 0 else { throw ServeFailure("google-callback.py keys: \(keys.stderr)") }
        tls = try TestServerCertificate(in: tmp)
        standInLog = tmp.path("google.jsonl")
        control = tmp.path("google-control.json")
        _ = FileManager.default.createFile(atPath: standInLog, contents: nil)
        standIn = try ManagedProcess(
            "google-wallet-standin.py", GoogleWalletSupport.python,
            [
                Self.standInScript, "--cert", tls.certificate, "--key", tls.key, "--service-account", keyFile,
                "--issuer", Self.issuer, "--log", standInLog, "--control", control, "--fetch-images", tls.ca,
            ],
            stderrPath: tmp.path("google-standin.err"), keepStdinOpen: true)
        let line = try standIn.firstLine()
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            throw ServeFailure("google-wallet-standin.py said '\(line)': \(standIn.stderr)")
        }
        standInPort = port
        let base = "https://127.0.0.1:\(port)"
        serve = try ServeFixture(
            python: nil,
            environment: [
                "GOOGLE_APPLICATION_CREDENTIALS": keyFile, "PASSMINT_GOOGLE_ISSUER_ID": Self.issuer,
                "PASSMINT_ADMIN_TOKEN": String(repeating: "a1", count: 20),
            ],
            postgres: postgres,
            serveOptions: [
                "--google", "--google-api", base + "/walletobjects/v1", "--google-token-url", base + "/token",
                "--google-ca", tls.ca, "--google-rate", "0", "--google-root-keys",
                callbackKeys + "/root-keys.json",
            ] + serveOptions, port: fixedPort ? try freeLoopbackPort() : 0)
    }

    deinit { stop() }

    func stop() {
        serve.stop()
        standIn.stop(grace: 0)
    }

    /// Issues a loyalty pass into the store with `--google` (its object linked, the link carrying the object
    /// only: the template's classes are published by issuing it); returns its save link and distribution link.
    func generate(serial: String, set values: [String] = [], google: Bool = true) throws -> (
        saveURL: String?, link: String
    ) {
        let result = try CLI.passmint(
            ["generate", "--template", Self.loyalty] + serve.storeArguments
                + ["--web-service-url", serve.base + "/", "--serial", serial, "--out", tmp.path("\(serial).pkpass")]
                + (google ? ["--google", "--google-class-published"] : []) + values.flatMap { ["--set", $0] }
                + DevIdentity.signingArgs,
            environment: environment)
        guard result.status == 0 else { throw ServeFailure("generate \(serial): \(result.stderr)") }
        func line(_ prefix: String) -> String? {
            result.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) }.map {
                String($0.dropFirst(prefix.count))
            }
        }
        guard let link = line("link: ") else { throw ServeFailure("generate \(serial) printed no link") }
        return (line("google: "), link)
    }

    /// Saves a save link the way a holder does: Google creates what its JWT carries (the stand-in checks it).
    func save(_ saveURL: String) throws -> Int {
        let jwt = String(saveURL.dropFirst("https://pay.google.com/gp/v/save/".count))
        let result = try CLI.run(
            "curl",
            ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", tls.ca, standInBase + "/gp/v/save/" + jwt])
        return Int(result.stdout) ?? 0
    }

    /// What the stand-in was asked, in order.
    func requests() throws -> [[String: Any]] {
        try AppendedLog.records(ofFile: standInLog)
    }

    /// The requests to `path` (under /walletobjects/v1/) answered `status` (any when nil), by method.
    func calls(_ method: String, _ path: String, status: Int? = 200) throws -> [[String: Any]] {
        try requests().filter {
            $0["method"] as? String == method && $0["path"] as? String == "/walletobjects/v1/" + path
                && (status == nil || $0["status"] as? Int == status)
        }
    }

    /// Requests the stand-in refused with 400 (a body Google's schema refuses, an assertion it does not take).
    func refused() throws -> [[String: Any]] {
        try requests().filter { $0["status"] as? Int == 400 }
    }

    /// serve's log and the stand-in's, for a failure message.
    var diagnostics: String {
        let log = (try? String(contentsOfFile: standInLog, encoding: .utf8)) ?? ""
        return "serve: \(serve.serve.stderr.suffix(3000))\nstand-in: \(standIn.stderr.suffix(2000))\n"
            + "requests: \(log.suffix(3000))"
    }

    /// Sets the stand-in's control file (injected answers, delay).
    func setControl(_ value: [String: Any]) throws {
        // Written to a temporary name and renamed: the stand-in never reads half a file.
        try JSONSerialization.data(withJSONObject: value).write(to: URL(fileURLWithPath: control), options: .atomic)
    }

    /// A callback signed as Google signs it (or forged as `extra` says), posted to serve; its status.
    func callback(
        object: String, class classID: String, event: String = "save", nonce: String, extra: [String] = []
    ) throws -> (status: Int, body: String) {
        let signed = try CLI.run(
            GoogleWalletSupport.python,
            [
                Self.callbackScript, "sign", callbackKeys, "--issuer", Self.issuer, "--class", classID, "--object",
                object, "--event", event, "--nonce", nonce,
            ] + extra)
        guard signed.status == 0 else { throw ServeFailure("google-callback.py sign: \(signed.stderr)") }
        let reply = try serve.http("POST", "/google/callbacks", body: signed.stdout)
        return (reply.status, reply.text)
    }

    /// `passmint update SERIAL --set …` against the running service's store.
    func update(_ serial: String, _ values: [String]) throws -> CLI.Result {
        try serve.update(serial, values)
    }
}
