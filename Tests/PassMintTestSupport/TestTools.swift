import Foundation
import Testing

/// Tools that only some tests need, looked up once per test process; a test that needs one is
/// `.enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing)`.
public enum TestTools {
    /// A python3 that can `import h2` (Debian python3-h2, or pip), or nil: the APNs stand-in
    /// (`Tests/PassPushTests/PushTestServer.py`) needs it.
    public static let pythonWithH2: String? = {
        for candidate in ["python3", "/usr/bin/python3"] {
            if let result = try? CLI.run(candidate, ["-c", "import h2"]), result.status == 0 { return candidate }
        }
        return nil
    }()

    /// Why a test that needs `pythonWithH2` is skipped.
    public static let pythonWithH2Missing: Comment =
        "python3 with h2 is not available for the APNs stand-in: apt-get install python3-h2"

    /// A python3 that can `import h2` and `cryptography` (Debian python3-h2 and python3-cryptography), or nil: the
    /// APNs stand-in checks provider tokens (ES256) with it.
    public static let pythonWithH2AndCryptography: String? = {
        for candidate in ["/usr/bin/python3", "python3"] {
            if let result = try? CLI.run(candidate, ["-c", "import h2, cryptography"]), result.status == 0 {
                return candidate
            }
        }
        return nil
    }()

    /// Why a test that needs `pythonWithH2AndCryptography` is skipped.
    public static let pythonWithH2AndCryptographyMissing: Comment =
        "/usr/bin/python3 with h2 and cryptography is not available for the APNs stand-in's token checks: apt-get install python3-h2 python3-cryptography"

    /// Whether nghttp2's HTTP/2 server `nghttpd` is on PATH.
    public static let hasNghttpd: Bool = (try? CLI.run("nghttpd", ["--version"]))?.status == 0

    /// Why a test that needs nghttpd is skipped.
    public static let nghttpdMissing: Comment = "nghttpd is not installed: apt-get install nghttp2-server"
}

/// A 64-digit hex push token: `prefix`, zeros, then `number` in hex. The APNs stand-in answers by the token's
/// first characters (`410…` is unregistered, `429…` is throttled; see PushTestServer.py).
public func pushToken(_ prefix: String, _ number: Int) -> String {
    let tail = String(number, radix: 16)
    return prefix + String(repeating: "0", count: 64 - prefix.count - tail.count) + tail
}
