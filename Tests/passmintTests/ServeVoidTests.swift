import Foundation
import Testing

/// Voiding and expiring a stored pass end to end: `passmint update --void` and the admin PATCH re-sign the pass
/// with `voided` / `expirationDate`, push every device, and the phones download the new version.
@Suite("serve: voiding and expiry (end to end)", .serialized)
struct ServeVoidTests {
    @Test(
        "update --void: the pass downloads voided and signed, with a new Last-Modified, and each device got one push",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func voidFromTheCommandLine() throws {
        let f = try ServeFixture(python: TestTools.pythonWithH2)
        defer { f.stop() }
        let (_, token) = try f.generate(serial: "VOID-1")
        let pushes = [pushToken("d0", 1), pushToken("d0", 2)]
        for (number, push) in pushes.enumerated() {
            #expect(
                try f.register(device: "vd\(number)", serial: "VOID-1", token: token, pushToken: push).status == 201)
        }
        let before = try f.download(serial: "VOID-1", token: token)
        #expect(before.status == 200)
        try before.body.write(to: URL(fileURLWithPath: f.tmp.path("before.pkpass")))
        #expect(try ServeTools.passJSON(f.tmp.path("before.pkpass"))["voided"] == nil)

        let usage = try CLI.passmint(["update", "VOID-1"] + f.storeArguments + DevIdentity.signingArgs)
        #expect(usage.status == 2 && usage.stderr.contains("--void"), "\(usage.stderr)")
        let result = try CLI.passmint(["update", "VOID-1", "--void"] + f.storeArguments + DevIdentity.signingArgs)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("voided: false → true"), "\(result.stdout)")
        #expect(result.stdout.contains("2 push(es) queued"), "\(result.stdout)")
        #expect(try ServeTools.sqlite(f.db, "select voided from passes where serial = 'VOID-1'") == "1")

        let delivered = try waitUntil(timeout: 20) { try f.apnsRequests().count >= 2 }
        try #require(delivered, "pushes at the stand-in: \((try? f.apnsRequests().count) ?? -1); \(f.serve.stderr)")
        #expect(try f.pushedTokens() == Set(pushes))
        #expect(try f.apnsRequests().count == 2)

        let after = try f.download(serial: "VOID-1", token: token)
        #expect(after.status == 200)
        #expect(after.headers["last-modified"] != before.headers["last-modified"])
        let path = f.tmp.path("after.pkpass")
        try after.body.write(to: URL(fileURLWithPath: path))
        #expect(try ServeTools.passJSON(path)["voided"] as? Bool == true)
        #expect(try ServeTools.opensslVerifies(path, tmp: f.tmp))
        #expect(try f.list(device: "vd0").status == 200)
    }

    @Test(
        "PATCH expirationDate then voided: each re-signs the pass with the new state",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func expireAndVoidOverTheAdminAPI() throws {
        let admin = (0..<4).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "") }.joined()
        let f = try ServeFixture(python: TestTools.pythonWithH2, environment: ["PASSMINT_ADMIN_TOKEN": admin])
        defer { f.stop() }
        let (_, token) = try f.generate(serial: "EXP-1")
        let bearer = ["Authorization": "Bearer \(admin)"]
        let bad = try f.http(
            "PATCH", "/admin/v1/passes/EXP-1", headers: bearer, body: #"{"expirationDate":"next week"}"#)
        #expect(bad.status == 400 && bad.text.contains("ISO 8601"), "\(bad.text)")

        let expired = try f.http(
            "PATCH", "/admin/v1/passes/EXP-1", headers: bearer, body: #"{"expirationDate":"2027-03-31T23:59:59Z"}"#)
        #expect(expired.status == 200, "\(expired.text)")
        let first = f.tmp.path("expired.pkpass")
        try f.download(serial: "EXP-1", token: token).body.write(to: URL(fileURLWithPath: first))
        let json = try ServeTools.passJSON(first)
        #expect(json["expirationDate"] as? String == "2027-03-31T23:59:59Z")
        #expect(json["voided"] == nil)

        let voided = try f.http("PATCH", "/admin/v1/passes/EXP-1", headers: bearer, body: #"{"voided":true}"#)
        #expect(voided.status == 200, "\(voided.text)")
        #expect(try voided.json()["voided"] as? Bool == true)
        let second = f.tmp.path("voided.pkpass")
        try f.download(serial: "EXP-1", token: token).body.write(to: URL(fileURLWithPath: second))
        let again = try ServeTools.passJSON(second)
        #expect(again["voided"] as? Bool == true)
        #expect(again["expirationDate"] as? String == "2027-03-31T23:59:59Z")
        #expect(try ServeTools.opensslVerifies(second, tmp: f.tmp))
    }
}
