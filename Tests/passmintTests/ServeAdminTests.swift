import Foundation
import Testing

/// The admin API of `passmint serve` end to end: PATCH changes the pass and pushes, GET shows what happened.
@Suite("serve: admin API (end to end)", .serialized)
struct ServeAdminTests {
    @Test(
        "PATCH with the bearer token changes the tier and pushes to every device; GET shows registrations and history",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func patchAndShow() throws {
        let admin = (0..<4).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "") }.joined()
        let f = try ServeFixture(python: TestTools.pythonWithH2, environment: ["PASSMINT_ADMIN_TOKEN": admin])
        defer { f.stop() }
        let (_, token) = try f.generate(serial: "ADM-1")
        let pushes = [pushToken("ad", 1), pushToken("ad", 2)]
        for (number, push) in pushes.enumerated() {
            #expect(
                try f.register(device: "adm\(number)", serial: "ADM-1", token: token, pushToken: push).status == 201)
        }
        let path = "/admin/v1/passes/ADM-1"
        let bearer = ["Authorization": "Bearer \(admin)"]

        // Wrong or missing bearer token: 401 and nothing changes.
        let wrong = try f.http("PATCH", path, headers: ["Authorization": "Bearer x\(admin)"], body: #"{"tier":"Gold"}"#)
        #expect(wrong.status == 401)
        #expect(wrong.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        #expect(try f.http("PATCH", path, body: #"{"tier":"Gold"}"#).status == 401)
        #expect(
            try f.http("PATCH", path, headers: ["Authorization": "ApplePass \(token)"], body: #"{"tier":"Gold"}"#)
                .status == 401)
        #expect(try f.http("GET", path, headers: ["Authorization": "Bearer nope"]).status == 401)
        // A value the template does not allow, and an unknown serial.
        let invalid = try f.http("PATCH", path, headers: bearer, body: #"{"tier":"Diamond"}"#)
        #expect(invalid.status == 400 && invalid.text.contains("Diamond"), "\(invalid.text)")
        #expect(try f.http("PATCH", "/admin/v1/passes/NOPE", headers: bearer, body: #"{"tier":"Gold"}"#).status == 404)
        #expect(try ServeTools.sqlite(f.db, "select tag from passes where serial = 'ADM-1'") == "1")
        #expect(try f.count("push_outbox") == 0 && f.apnsRequests().isEmpty)

        // The real change.
        let patched = try f.http("PATCH", path, headers: bearer, body: #"{"tier":"Gold"}"#)
        #expect(patched.status == 200, "\(patched.text)")
        let view = try patched.json()
        #expect((view["record"] as? [String: String])?["tier"] == "Gold")
        #expect(view["pushesQueued"] as? Int == 2)
        let tag = try #require(view["tag"] as? String)
        #expect(tag == (try ServeTools.sqlite(f.db, "select tag from passes where serial = 'ADM-1'")))
        let delivered = try waitUntil(timeout: 20) { try f.apnsRequests().count >= 2 }
        try #require(delivered, "pushes at the stand-in: \((try? f.apnsRequests().count) ?? -1); \(f.serve.stderr)")
        #expect(Set(try f.apnsRequests().compactMap { $0["path"] as? String }) == Set(pushes.map { "/3/device/\($0)" }))

        // The phones see the change.
        let pass = try f.download(serial: "ADM-1", token: token)
        try pass.body.write(to: URL(fileURLWithPath: f.tmp.path("adm.pkpass")))
        let json = try ServeTools.passJSON(f.tmp.path("adm.pkpass"))
        let header = ((json["generic"] as? [String: Any])?["headerFields"] as? [[String: Any]])?.first
        #expect(header?["value"] as? String == "Gold")

        // GET: record, both registrations, and a push history with one sent push per device for the new tag.
        let shown = try waitUntil(timeout: 10) {
            let view = try f.http("GET", path, headers: bearer).json()
            return (view["pushes"] as? [[String: Any]])?.filter { $0["result"] as? String == "sent" }.count == 2
        }
        #expect(shown, "push history never showed two sent pushes")
        let details = try f.http("GET", path, headers: bearer)
        #expect(details.status == 200 && details.headers["content-type"]?.hasPrefix("application/json") == true)
        let body = try details.json()
        #expect(body["serialNumber"] as? String == "ADM-1")
        #expect(body["passTypeIdentifier"] as? String == ServeTools.passType)
        let devices = (body["registrations"] as? [[String: Any]] ?? []).compactMap {
            $0["deviceLibraryIdentifier"] as? String
        }
        #expect(devices.sorted() == ["adm0", "adm1"])
        for push in body["pushes"] as? [[String: Any]] ?? [] {
            #expect(push["tag"] as? String == tag)
        }
        #expect(body["pendingPushes"] as? Int == 0)
        #expect(!f.serve.stderr.contains(admin), "the admin token leaked into the log")
    }

    @Test("without PASSMINT_ADMIN_TOKEN the admin API is off (403), and the Wallet routes still work")
    func disabledWithoutToken() throws {
        let f = try ServeFixture(python: nil, environment: ["PASSMINT_ADMIN_TOKEN": ""])
        defer { f.stop() }
        _ = try f.generate(serial: "OFF-1")
        let reply = try f.http("GET", "/admin/v1/passes/OFF-1", headers: ["Authorization": "Bearer "])
        #expect(reply.status == 403 && reply.text.contains("PASSMINT_ADMIN_TOKEN"), "\(reply.status) \(reply.text)")
        #expect(try f.http("GET", "/healthz").status == 200)
    }
}
