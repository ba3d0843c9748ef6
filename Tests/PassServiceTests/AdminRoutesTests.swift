import Foundation
import Testing
@testable import PassHTTP
@testable import PassService

@Suite("Admin routes over HTTP")
struct AdminRoutesTests {
    let bearer = ["Authorization": "Bearer \(LiveService.adminToken)"]

    @Test("PATCH changes the record, bumps the tag and queues one push per device")
    func patch() throws {
        let live = try LiveService()
        let pass = try live.addPass("S1")
        for device in ["d1", "d2"] {
            _ = try live.store.register(
                device: device, passType: passType, serial: "S1", pushToken: "ab\(device.last!)", tag: 1)
        }
        let response = try live.call(
            "PATCH", "/admin/v1/passes/S1", headers: bearer,
            body: jsonBody(["tier": "Gold", "points": 250]))
        #expect(response.status == 200)
        let json = try #require(response.json)
        #expect(json["pushesQueued"] as? Int == 2)
        #expect((json["record"] as? [String: String])?["tier"] == "Gold")
        #expect((json["record"] as? [String: String])?["points"] == "250")
        #expect((json["record"] as? [String: String])?["name"] == "Ada")
        #expect(json["tag"] as? String == String(pass.tag + 1))
        #expect(try live.store.outboxDepth() == 2)
        #expect(try live.store.pass(serial: "S1")?.record["tier"] == "Gold")

        let shown = try live.call("GET", "/admin/v1/passes/S1", headers: bearer)
        #expect(shown.status == 200)
        #expect((shown.json?["registrations"] as? [Any])?.count == 2)
        #expect(shown.json?["pendingPushes"] as? Int == 2)
        #expect(shown.text.contains(pass.authenticationToken) == false)
    }

    @Test("PATCH errors: the validator's refusal by its own status (400), malformed or empty body; 404 unknown serial")
    func patchErrors() throws {
        /// A refusal that knows it is the client's mistake, as a validator's errors say (`HTTPResponseError`).
        struct Invalid: HTTPResponseError {
            var status: Int { 400 }
            var response: Response { HTTPError.badRequest("tier must be Silver or Gold").response }
        }
        let live = try LiveService(recordValidator: { pass, change in
            if let tier = change.values["tier"], !["Silver", "Gold"].contains(tier) { throw Invalid() }
            return pass.record.merging(change.values) { $1 }
        })
        _ = try live.addPass("S1")
        let invalid = try live.call("PATCH", "/admin/v1/passes/S1", headers: bearer, body: jsonBody(["tier": "Tin"]))
        #expect(invalid.status == 400)
        #expect((invalid.json?["error"] as? [String: Any])?["message"] as? String == "tier must be Silver or Gold")
        #expect(try live.call("PATCH", "/admin/v1/passes/S1", headers: bearer, body: Array("[1]".utf8)).status == 400)
        #expect(try live.call("PATCH", "/admin/v1/passes/S1", headers: bearer, body: jsonBody([:])).status == 400)
        #expect(
            try live.call(
                "PATCH", "/admin/v1/passes/S1", headers: bearer,
                body: jsonBody(["a": ["nested": 1]])
            ).status == 400)
        #expect(
            try live.call(
                "PATCH", "/admin/v1/passes/NOPE", headers: bearer,
                body: jsonBody(["tier": "Gold"])
            ).status == 404)
        #expect(try live.store.pass(serial: "S1")?.record["tier"] == "Silver")
    }

    @Test("PATCH {\"points\": {\"add\": N}} adds to the stored value; a change to the same values is changed: false")
    func patchAdd() throws {
        let live = try LiveService()
        _ = try live.addPass("S1")
        _ = try live.store.register(device: "d1", passType: passType, serial: "S1", pushToken: "ab1", tag: 1)
        let added = try live.call(
            "PATCH", "/admin/v1/passes/S1", headers: bearer, body: jsonBody(["points": ["add": -3]]))
        #expect(added.status == 200, "\(added.text)")
        #expect(added.json?["changed"] as? Bool == true && added.json?["pushesQueued"] as? Int == 1)
        #expect(try live.store.pass(serial: "S1")?.record["points"] == "7")
        let again = try live.call(
            "PATCH", "/admin/v1/passes/S1", headers: bearer, body: jsonBody(["points": ["add": 1]]))
        #expect(again.json?["pushesQueued"] as? Int == 0 && again.json?["pushesAlreadyPending"] as? Int == 1)
        let tag = try live.store.pass(serial: "S1")?.tag
        let same = try live.call("PATCH", "/admin/v1/passes/S1", headers: bearer, body: jsonBody(["points": "8"]))
        #expect(
            same.status == 200 && same.json?["changed"] as? Bool == false && same.json?["pushesQueued"] as? Int == 0)
        #expect(try live.store.pass(serial: "S1")?.tag == tag)
        for bad in [["points": ["mul": 2]], ["points": ["add": "x", "also": 1]], ["points": ["add": [1]]]] {
            let refused = try live.call("PATCH", "/admin/v1/passes/S1", headers: bearer, body: jsonBody(bad))
            #expect(refused.status == 400, "\(bad)")
        }
        #expect(try live.store.pass(serial: "S1")?.record["points"] == "8")
    }

    @Test("PATCH voided: true cancels the pass and pushes it; voided must be a boolean; expirationDate null clears")
    func patchVoided() throws {
        let live = try LiveService()
        let pass = try live.addPass("S1")
        _ = try live.store.register(device: "d1", passType: passType, serial: "S1", pushToken: "ab1", tag: 1)
        let notBool = try live.call("PATCH", "/admin/v1/passes/S1", headers: bearer, body: jsonBody(["voided": "yes"]))
        #expect(notBool.status == 400)
        #expect(notBool.text.contains("voided must be a JSON boolean"))
        let nullField = try live.call(
            "PATCH", "/admin/v1/passes/S1", headers: bearer, body: Array(#"{"tier": null}"#.utf8))
        #expect(nullField.status == 400)
        #expect(try live.store.pass(serial: "S1")?.voided == false)

        let response = try live.call("PATCH", "/admin/v1/passes/S1", headers: bearer, body: jsonBody(["voided": true]))
        #expect(response.status == 200)
        #expect(response.json?["voided"] as? Bool == true)
        #expect(response.json?["pushesQueued"] as? Int == 1)
        #expect(response.json?["tag"] as? String == String(pass.tag + 1))
        #expect(try live.store.pass(serial: "S1")?.voided == true)

        let cleared = try live.call(
            "PATCH", "/admin/v1/passes/S1", headers: bearer, body: Array(#"{"expirationDate": null}"#.utf8))
        #expect(cleared.status == 200)
        #expect(try live.store.pass(serial: "S1")?.voided == true)
    }

    @Test("bearer token required; admin disabled without the environment variable")
    func auth() throws {
        let live = try LiveService()
        _ = try live.addPass("S1")
        #expect(try live.call("GET", "/admin/v1/passes/S1").status == 401)
        let wrong = try live.call("GET", "/admin/v1/passes/S1", headers: ["Authorization": "Bearer nope"])
        #expect(wrong.status == 401)
        #expect(wrong.header("WWW-Authenticate") == "Bearer")
        #expect(
            try live.call(
                "GET", "/admin/v1/passes/S1",
                headers: ["Authorization": "ApplePass \(LiveService.adminToken)"]
            ).status == 401)

        let disabled = try LiveService(environment: [:])
        _ = try disabled.addPass("S1")
        #expect(try disabled.request("GET", "/admin/v1/passes/S1", headers: bearer).status == 403)
        #expect(
            try disabled.request(
                "PATCH", "/admin/v1/passes/S1", headers: bearer,
                body: jsonBody(["tier": "Gold"])
            ).status == 403)
    }

    @Test("a custom variable name is honoured")
    func customVariable() throws {
        let live = try LiveService(
            configuration: ServiceConfiguration(host: "127.0.0.1", port: 0, adminTokenVariable: "MY_ADMIN"),
            environment: [
                "MY_ADMIN": "other-secret-0123456789abcdef0123", "PASSMINT_ADMIN_TOKEN": LiveService.adminToken,
            ])
        _ = try live.addPass("S1")
        #expect(try live.call("GET", "/admin/v1/passes/S1", headers: bearer).status == 401)
        #expect(
            try live.call(
                "GET", "/admin/v1/passes/S1",
                headers: ["Authorization": "Bearer other-secret-0123456789abcdef0123"]
            ).status == 200)
    }
}
