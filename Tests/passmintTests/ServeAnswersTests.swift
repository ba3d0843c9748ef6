import Foundation
import Testing

/// `passmint serve` answers checked with curl and sqlite3: 304, 204, 401, 400, and 410 from APNs.
@Suite("serve: protocol answers (end to end)", .serialized)
struct ServeAnswersTests {
    @Test("304 unchanged, 204 nothing new, 401 on a wrong token, 400 for a bad tag or body")
    func answers() throws {
        let f = try ServeFixture(python: nil)
        defer { f.stop() }
        let (_, token) = try f.generate(serial: "ANS-1")
        let wrong = String(token.reversed())
        let push = pushToken("ab", 1)

        // Register: 401 with a wrong or missing token (nothing stored), 201, then 200.
        #expect(try f.register(device: "dev-a", serial: "ANS-1", token: wrong, pushToken: push).status == 401)
        let noAuth = try f.http(
            "POST", "/v1/devices/dev-a/registrations/\(ServeTools.passType)/ANS-1", body: #"{"pushToken":"\#(push)"}"#)
        #expect(noAuth.status == 401)
        #expect(try f.count("registrations") == 0)
        #expect(try f.register(device: "dev-a", serial: "ANS-1", token: token, pushToken: push).status == 201)
        #expect(try f.register(device: "dev-a", serial: "ANS-1", token: token, pushToken: push).status == 200)
        // Re-registering with a new push token replaces it.
        let newPush = pushToken("cd", 2)
        #expect(try f.register(device: "dev-a", serial: "ANS-1", token: token, pushToken: newPush).status == 200)
        #expect(
            try ServeTools.sqlite(f.db, "select push_token from devices where device_library_id = 'dev-a'") == newPush)
        #expect(try f.count("registrations") == 1)

        // 400: a missing or non-hex pushToken, malformed JSON; never a 5xx.
        let path = "/v1/devices/dev-b/registrations/\(ServeTools.passType)/ANS-1"
        let auth = ["Authorization": "ApplePass \(token)"]
        #expect(try f.http("POST", path, headers: auth, body: "{}").status == 400)
        #expect(try f.http("POST", path, headers: auth, body: #"{"pushToken":"not hex!"}"#).status == 400)
        #expect(try f.http("POST", path, headers: auth, body: #"{"pushToken":"#).status == 400)
        #expect(try f.count("registrations", where: "device = 'dev-b'") == 0)

        // List: 200 with a string tag, 204 since that tag, 400 for a tag this service never gave, 204 for a stranger.
        let listed = try f.list(device: "dev-a")
        #expect(listed.status == 200)
        #expect(listed.headers["content-type"]?.hasPrefix("application/json") == true)
        let body = try listed.json()
        #expect(body["serialNumbers"] as? [String] == ["ANS-1"])
        let tag = try #require(body["lastUpdated"] as? String, "lastUpdated is a string: \(listed.text)")
        let unchanged = try f.list(device: "dev-a", since: tag)
        #expect(unchanged.status == 204 && unchanged.body.isEmpty)
        #expect(try f.list(device: "dev-a", since: "yesterday").status == 400)
        #expect(try f.list(device: "dev-a", since: "-1").status == 400)
        #expect(try f.list(device: "stranger").status == 204)

        // Download: 401 with a wrong token or an unknown serial, 200 with Last-Modified, then 304 on it.
        #expect(try f.download(serial: "ANS-1", token: wrong).status == 401)
        #expect(try f.download(serial: "NO-SUCH", token: token).status == 401)
        let pass = try f.download(serial: "ANS-1", token: token)
        #expect(pass.status == 200)
        #expect(pass.headers["content-type"] == "application/vnd.apple.pkpass")
        let lastModified = try #require(pass.headers["last-modified"])
        try pass.body.write(to: URL(fileURLWithPath: f.tmp.path("downloaded.pkpass")))
        #expect(try ServeTools.opensslVerifies(f.tmp.path("downloaded.pkpass"), tmp: f.tmp))
        let notModified = try f.download(serial: "ANS-1", token: token, ifModifiedSince: lastModified)
        #expect(notModified.status == 304 && notModified.body.isEmpty)
        #expect(try f.download(serial: "ANS-1", token: wrong, ifModifiedSince: lastModified).status == 401)
        let stale = try f.download(serial: "ANS-1", token: token, ifModifiedSince: "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(stale.status == 200)
        // Dates other than our exact text are parsed: an older one (RFC 850 form) gets the pass, a later one a 304.
        let older = try f.download(serial: "ANS-1", token: token, ifModifiedSince: "Sunday, 06-Nov-94 08:49:37 GMT")
        #expect(older.status == 200, "1994 is before the pass was made")
        let future = try f.download(serial: "ANS-1", token: token, ifModifiedSince: "Fri, 01 Jan 2100 00:00:00 GMT")
        #expect(future.status == 304 && future.headers["last-modified"] == lastModified)
        let spaced = try f.http(
            "GET", "/v1/passes/\(ServeTools.passType)/ANS-1", headers: ["Authorization": "applepass \(token)\t "])
        #expect(spaced.status == 200, "scheme is case-insensitive, trailing whitespace ignored")

        // A change in the same second still gets a later Last-Modified and is listed since the old tag.
        #expect(try f.update("ANS-1", ["milesToNextTier=100"]).status == 0)
        let changed = try f.download(serial: "ANS-1", token: token, ifModifiedSince: lastModified)
        #expect(changed.status == 200, "the update must not be hidden behind a 304")
        let newModified = try #require(changed.headers["last-modified"])
        let newSeconds = try #require(ServeHTTPDate.seconds(newModified))
        let oldSeconds = try #require(ServeHTTPDate.seconds(lastModified))
        #expect(newSeconds > oldSeconds, "Last-Modified \(newModified) must be later than \(lastModified)")
        #expect(try f.list(device: "dev-a", since: tag).json()["serialNumbers"] as? [String] == ["ANS-1"])

        // Unregister: 401 with a wrong token (the registration stays), then 200, and the device is gone.
        let unregisterPath = "/v1/devices/dev-a/registrations/\(ServeTools.passType)/ANS-1"
        #expect(try f.http("DELETE", unregisterPath, headers: ["Authorization": "ApplePass \(wrong)"]).status == 401)
        #expect(try f.count("registrations") == 1)
        #expect(try f.http("DELETE", unregisterPath, headers: auth).status == 200)
        #expect(try f.count("registrations") == 0)
        #expect(try f.count("devices") == 0)
        #expect(try f.list(device: "dev-a").status == 204)

        // No token or secret in the request log.
        #expect(
            !f.serve.stderr.contains(token) && !f.serve.stderr.contains(push) && !f.serve.stderr.contains(newPush),
            "a secret leaked into the log")
    }

    @Test(
        "410 Unregistered from APNs deletes that device's registration; other devices keep theirs",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func unregisteredTokenIsDeleted() throws {
        let f = try ServeFixture(python: TestTools.pythonWithH2)
        defer { f.stop() }
        let (_, token) = try f.generate(serial: "GONE-1")
        let gone = pushToken("410", 1), alive = pushToken("beef", 2)
        #expect(try f.register(device: "dev410", serial: "GONE-1", token: token, pushToken: gone).status == 201)
        #expect(try f.register(device: "devok", serial: "GONE-1", token: token, pushToken: alive).status == 201)
        #expect(try f.count("registrations") == 2)

        let update = try f.update("GONE-1", ["tier=Platinum"])
        #expect(update.status == 0 && update.stdout.contains("2 push(es) queued"), "\(update.stdout) \(update.stderr)")
        let answered = try waitUntil(timeout: 20) { try f.count("push_outbox") == 0 }
        try #require(answered, "outbox not drained: \(f.serve.stderr)")
        let paths = try f.apnsRequests().compactMap { $0["path"] as? String }.sorted()
        #expect(paths == ["/3/device/\(gone)", "/3/device/\(alive)"].sorted())

        #expect(try ServeTools.sqlite(f.db, "select count(*) from registrations") == "1")
        #expect(try f.count("registrations", where: "device = 'dev410'") == 0)
        #expect(try f.count("devices", where: "device_library_id = 'dev410'") == 0)
        #expect(try f.list(device: "dev410").status == 204)
        let other = try f.list(device: "devok")
        #expect(other.status == 200)
        #expect(try other.json()["serialNumbers"] as? [String] == ["GONE-1"])
        #expect(try ServeTools.sqlite(f.db, "select result from push_history order by result") == "dropped\nsent")
        // Only one push each: a 410 is never retried (with the outbox empty, nothing is left to send).
        #expect(try waitUntil(timeout: 20) { try f.count("push_outbox") == 0 })
        #expect(try f.apnsRequests().count == 2)
    }
}

/// RFC 7231 dates for comparisons in tests.
enum ServeHTTPDate {
    static func seconds(_ text: String) -> TimeInterval? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)?.timeIntervalSince1970
    }
}
