import Foundation
import Testing

/// `--trust-root`: a team's own chain counts as Apple's for the chain checks, and the output says so.
@Suite("--trust-root (end to end)")
struct TrustRootTests {
    /// An enterprise chain made with openssl alone: root CA → intermediate CA → Pass Type ID leaf (with Apple's
    /// pass-type extension and EKU, but not issued by Apple).
    static func enterpriseChain(in tmp: TempDir) throws -> String {
        let dir = tmp.path("chain")
        let script = """
            set -e
            mkdir -p \(dir) && cd \(dir)
            openssl req -x509 -newkey rsa:2048 -nodes -keyout root-key.pem -out root.pem -days 30 \
              -subj "/O=Example Enterprise/CN=Example Test Root" -addext basicConstraints=critical,CA:true 2>/dev/null
            openssl req -newkey rsa:2048 -nodes -keyout ca-key.pem -out ca.csr -subj "/O=Example Enterprise/CN=Example Pass CA" 2>/dev/null
            printf 'basicConstraints=critical,CA:true\\nkeyUsage=keyCertSign,cRLSign\\n' > ca.ext
            openssl x509 -req -in ca.csr -CA root.pem -CAkey root-key.pem -CAcreateserial -days 30 -extfile ca.ext -out ca.pem 2>/dev/null
            openssl req -newkey rsa:2048 -nodes -keyout pass-key.pem -out pass.csr \
              -subj "/UID=pass.example.enterprise/CN=Pass Type ID: pass.example.enterprise/OU=ENTTEAM001" 2>/dev/null
            printf 'extendedKeyUsage=1.2.840.113635.100.4.14\\n1.2.840.113635.100.6.1.16=ASN1:UTF8String:pass.example.enterprise\\n' > leaf.ext
            openssl x509 -req -in pass.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 20 -extfile leaf.ext -out pass.pem 2>/dev/null
            chmod 600 pass-key.pem
            """
        let made = try CLI.run("bash", ["-c", script])
        #expect(made.status == 0, "\(made.stderr)")
        return dir
    }

    @Test("generate and verify refuse an enterprise chain as not Apple's, and accept it with --trust-root, saying so")
    func enterpriseChain() throws {
        let tmp = try TempDir()
        let chain = try Self.enterpriseChain(in: tmp)
        let identity = ["--cert", chain + "/pass.pem", "--key", chain + "/pass-key.pem", "--wwdr", chain + "/ca.pem"]
        let template = PackagePaths.template("loyalty")
        let out = tmp.path("enterprise.pkpass")

        let refused = try CLI.passmint(["generate", "--template", template, "--out", out] + identity)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("certificate.not-apple"), "\(refused.stderr)")
        #expect(refused.stderr.contains("is not Apple's WWDR and leads to no trusted root"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))

        let trusted = ["--trust-root", chain + "/root.pem"]
        let made = try CLI.passmint(["generate", "--template", template, "--out", out] + identity + trusted)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(!made.stderr.contains("no trusted root"), "\(made.stderr)")

        let plain = try CLI.passmint(["verify", "--json", out])
        #expect(plain.status == 1)
        #expect(plain.stdout.contains("certificate.not-apple"))
        let accepted = try CLI.passmint(["verify", out] + trusted)
        #expect(accepted.status == 0, "\(accepted.stdout)")
        #expect(accepted.stdout.contains("the chain leads to the trusted root"), "\(accepted.stdout)")
        #expect(accepted.stdout.contains(chain + "/root.pem"))

        // batch --resume re-checks kept passes with the same roots: a kept pass is kept, not issued again.
        try BatchTests.writeCSV("memberName\nAda\n", to: tmp.path("in.csv"))
        let batchArgs =
            [
                "batch", "--template", template, "--csv", tmp.path("in.csv"), "--out", tmp.path("out"),
                "--report", tmp.path("report.jsonl"),
            ] + identity + trusted
        #expect(try CLI.passmint(batchArgs).status == 0)
        let resumed = try CLI.passmint(batchArgs + ["--resume"])
        #expect(resumed.stderr.contains("0 issued, 0 updated, 0 unchanged, 1 already valid"), "\(resumed.stderr)")

        let missing = try CLI.passmint(["verify", out, "--trust-root", tmp.path("nope.pem")])
        #expect(missing.status == 3, "\(missing.stderr)")
        #expect(missing.stderr.contains("trust root \(tmp.path("nope.pem"))"))
    }
}
