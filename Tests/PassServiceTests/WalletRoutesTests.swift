import Foundation
import Testing

@testable import PassService

@Suite("Wallet routes over HTTP")
struct WalletRoutesTests {
    let device = "a1b2c3d4e5f6"

    func registrationPath(_ pass: StoredPass) -> String {
        "/v1/devices/\(device)/registrations/\(passType)/\(pass.serialNumber)"
    }

    @Test("register: 201 new, 200 known, 401 bad token, 400 missing or invalid pushToken or bad JSON")
    func register() throws {
        let live = try LiveService()
        let pass = try live.addPass("S1")
        let path = registrationPath(pass)
        let body = jsonBody(["pushToken": "abcdef0123"])
        // Over the socket once (the server's body and header handling), in process after that.
        #expect(try live.request("POST", path, headers: applePass(pass), body: body).status == 201)
        #expect(try live.call("POST", path, headers: applePass(pass), body: body).status == 200)
        #expect(try live.call("POST", path, headers: ["Authorization": "ApplePass wrong"], body: body).status == 401)
        #expect(try live.call("POST", path, body: body).status == 401)
        let unknown = "/v1/devices/\(device)/registrations/\(passType)/NOPE"
        #expect(try live.call("POST", unknown, headers: applePass(pass), body: body).status == 401)
        #expect(try live.call("POST", path, headers: applePass(pass), body: jsonBody([:])).status == 400)
        #expect(try live.call("POST", path, headers: applePass(pass), body: jsonBody(["pushToken": 5])).status == 400)
        #expect(
            try live.call("POST", path, headers: applePass(pass), body: jsonBody(["pushToken": "zz"])).status == 400)
        #expect(try live.call("POST", path, headers: applePass(pass), body: Array("{nope".utf8)).status == 400)
        #expect(try live.call("POST", path, headers: applePass(pass)).status == 400)
        #expect(try live.store.registrationsCount() == 1)
    }

    @Test("list: 200 with serialNumbers and string lastUpdated, 204, 400 on a bad passesUpdatedSince")
    func list() throws {
        let live = try LiveService()
        let one = try live.addPass("S1"), two = try live.addPass("S2")
        for pass in [one, two] {
            _ = try live.call(
                "POST", registrationPath(pass), headers: applePass(pass),
                body: jsonBody(["pushToken": "abcdef"]))
        }
        let base = "/v1/devices/\(device)/registrations/\(passType)"
        let all = try live.call("GET", base)
        #expect(all.status == 200)
        #expect(all.header("Content-Type") == "application/json")
        let json = try #require(all.json)
        #expect(json["serialNumbers"] as? [String] == ["S1", "S2"])
        let lastUpdated = try #require(json["lastUpdated"] as? String)
        #expect(lastUpdated == String(two.tag))

        #expect(try live.call("GET", base + "?passesUpdatedSince=\(lastUpdated)").status == 204)
        let updated = try live.store.updateRecord(serial: "S1", record: ["tier": "Gold"]).pass
        let since = try live.call("GET", base + "?passesUpdatedSince=\(lastUpdated)")
        #expect(since.status == 200)
        #expect(since.json?["serialNumbers"] as? [String] == ["S1"])
        #expect(since.json?["lastUpdated"] as? String == String(updated.tag))

        #expect(try live.call("GET", "/v1/devices/other/registrations/\(passType)").status == 204)
        for bad in ["abc", "-1", "1.5", "99999999999999999999999"] {
            #expect(try live.call("GET", base + "?passesUpdatedSince=\(bad)").status == 400, "\(bad)")
        }
        #expect(try live.call("GET", base + "?passesUpdatedSince=").status == 200)
    }

    @Test("download: 200 pkpass with Last-Modified, 304 on If-Modified-Since, new version after an update, 401")
    func download() throws {
        let live = try LiveService()
        let pass = try live.addPass("S1")
        let path = "/v1/passes/\(passType)/S1"
        let first = try live.call("GET", path, headers: applePass(pass))
        #expect(first.status == 200)
        #expect(first.header("Content-Type") == "application/vnd.apple.pkpass")
        #expect(first.text == "PKPASS S1 tag \(pass.tag) tier Silver")
        let lastModified = try #require(first.header("Last-Modified"))
        #expect(lastModified == HTTPDate.format(Int64(pass.modifiedAt.timeIntervalSince1970)))

        var conditional = applePass(pass)
        conditional["If-Modified-Since"] = lastModified
        let notModified = try live.call("GET", path, headers: conditional)
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)

        _ = try live.call("GET", path, headers: applePass(pass))
        #expect(live.renderer.renderCount == 1)

        let updated = try live.store.updateRecord(serial: "S1", record: ["tier": "Gold"]).pass
        let second = try live.call("GET", path, headers: conditional)
        #expect(second.status == 200)
        #expect(second.text == "PKPASS S1 tag \(updated.tag) tier Gold")
        let newer = try #require(second.header("Last-Modified").flatMap(HTTPDate.parse))
        #expect(newer > HTTPDate.parse(lastModified)!)

        #expect(try live.call("GET", path).status == 401)
        #expect(try live.call("GET", path, headers: ["Authorization": "ApplePass nope"]).status == 401)
        #expect(try live.call("GET", "/v1/passes/pass.other/S1", headers: applePass(pass)).status == 401)
        // Over the socket: HEAD is the server's.
        #expect(try live.request("HEAD", path, headers: applePass(pass)).status == 200)
    }

    @Test("unregister: 200, 401; the device then lists nothing")
    func unregister() throws {
        let live = try LiveService()
        let pass = try live.addPass("S1")
        let path = registrationPath(pass)
        _ = try live.call("POST", path, headers: applePass(pass), body: jsonBody(["pushToken": "abcdef"]))
        #expect(try live.call("DELETE", path).status == 401)
        #expect(try live.call("DELETE", path, headers: applePass(pass)).status == 200)
        #expect(try live.store.registrationsCount() == 0)
        #expect(try live.call("GET", "/v1/devices/\(device)/registrations/\(passType)").status == 204)
    }

    @Test("log: 200 and stored; malformed 400")
    func log() throws {
        let live = try LiveService()
        #expect(try live.call("POST", "/v1/log", body: jsonBody(["logs": ["a", "b"]])).status == 200)
        #expect(try live.store.recentLogs(limit: 5) == ["a", "b"])
        #expect(try live.call("POST", "/v1/log", body: jsonBody(["logs": "a"])).status == 400)
    }
}
