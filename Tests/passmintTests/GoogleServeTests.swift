import Foundation
import Testing

/// `serve --google` end to end against the HTTPS stand-in of the Wallet API, which checks the OAuth assertion's
/// signature with the service account's public key and validates every body against Google's discovery document
/// (walletobjects.v1.json): updates become PATCHes, announced changes `addMessage` within Google's 3 per 24 hours,
/// Google's transient answers are retried, and what was sent survives a SIGKILL without being sent twice.
@Suite("serve --google: the Google outbox against a Wallet API stand-in (end to end)", .serialized)
struct GoogleServeTests {
    static let issuer = GoogleServeFixture.issuer

    static func objectPath(_ serial: String) -> String { "loyaltyObject/\(issuer).\(serial)" }

    /// The loyalty points a written object carries.
    static func points(_ body: Any?) -> Int? {
        ((body as? [String: Any])?["loyaltyPoints"] as? [String: Any]).flatMap {
            ($0["balance"] as? [String: Any])?["int"] as? Int
        }
    }

    @Test(
        "update --set tier=Gold: one PATCH carrying Gold and one addMessage; a fourth announced change within 24 h is a silent patch, counted",
        .enabled(if: GoogleWalletSupport.available, GoogleServeFixture.skipReason),
        arguments: StoreBackend.all)
    func patchesAndMessages(backend: StoreBackend) throws {
        let f = try GoogleServeFixture(postgres: backend == .postgres ? try TestPostgres.freshSchema() : nil)
        defer { f.stop() }
        let (saveURL, _) = try f.generate(serial: "G-1")
        // Issuing published the template: its classes (one per tier) reach Google; then the holder saves the link.
        let published = try waitUntil(timeout: 60) { try f.calls("POST", "loyaltyClass").count >= 3 }
        try #require(published, "the template's classes never reached the stand-in: \(f.diagnostics)")
        #expect(try f.save(try #require(saveURL)) == 200)

        let updated = try f.update("G-1", ["tier=Gold"])
        try #require(updated.status == 0, "\(updated.stderr)")
        let object = Self.objectPath("G-1")
        let sent = try waitUntil(timeout: 60) { try f.calls("POST", object + "/addMessage").count == 1 }
        try #require(sent, "no message reached the stand-in: \(f.serve.serve.stderr)")
        let patches = try f.calls("PATCH", object, status: nil)
        #expect(patches.count == 1, "\(patches)")
        // The object carries Gold, and moves to the Gold class (Google's rewardsTier is a class field).
        let patch = try #require(patches.first?["body"] as? [String: Any])
        let patchText = String(decoding: try JSONSerialization.data(withJSONObject: patch), as: UTF8.self)
        #expect(patchText.contains("\"Gold\""), "\(patchText)")
        let classID = try #require(patch["classId"] as? String)
        let goldClass = try f.calls("POST", "loyaltyClass").compactMap { $0["body"] as? [String: Any] }
            .first { $0["id"] as? String == classID }
        #expect(goldClass?["rewardsTier"] as? String == "Gold", "\(classID)")
        let message = try #require(
            (try f.calls("POST", object + "/addMessage").first?["body"] as? [String: Any])?["message"] as? [String: Any]
        )
        #expect(message["messageType"] as? String == "TEXT_AND_NOTIFY")
        #expect((message["body"] as? String)?.contains("Gold") == true, "\(message)")

        // Three more announced changes: two more messages (three in 24 hours), then a silent patch.
        for (index, points) in [301, 302, 303].enumerated() {
            let result = try f.update("G-1", ["points=\(points)"])
            try #require(result.status == 0, "\(result.stderr)")
            let arrived = try waitUntil(timeout: 60) {
                try f.calls("PATCH", object).contains { Self.points($0["body"]) == points }
            }
            try #require(arrived, "points=\(points) never arrived")
            #expect(try f.calls("PATCH", object).count == index + 2)
        }
        let drained = try waitUntil(timeout: 30) { try f.serve.count("google_outbox") == 0 }
        #expect(drained)
        let messages = try f.calls("POST", object + "/addMessage")
        #expect(messages.count == 3, "\(messages.map { $0["body"] ?? "" })")
        #expect(try f.calls("POST", object + "/addMessage", status: 429).isEmpty, "Google's limit was reached")
        let stats = try CLI.passmint(["stats", "--json"] + f.serve.storeArguments)
        #expect(stats.stdout.contains(#""silentUpdates":1"#), "\(stats.stdout)")
        let metrics = try f.serve.http("GET", "/metrics")
        #expect(metrics.text.contains(#"passmint_google_updates_total{result="silenced"} 1"#), "\(metrics.text)")
        let refused = try f.refused()
        #expect(refused.isEmpty, "the stand-in refused: \(refused)")

        // The images classes point at are served at their content address, immutable.
        let logo = try #require(
            (goldClass?["programLogo"] as? [String: Any]).flatMap { ($0["sourceUri"] as? [String: Any])?["uri"] }
                as? String)
        let path = String(logo.dropFirst(f.serve.base.count))
        let image = try f.serve.http("GET", path)
        #expect(image.status == 200)
        #expect(image.headers["content-type"] == "image/png")
        #expect(image.headers["cache-control"]?.contains("immutable") == true)
        #expect(try f.serve.http("GET", "/google/images/" + String(repeating: "0", count: 32) + ".png").status == 404)
    }

    @Test(
        "templates publish inserts the changed template's classes and patches each object onto its new class",
        .enabled(if: GoogleWalletSupport.available, GoogleServeFixture.skipReason))
    func publishInsertsClasses() throws {
        let f = try GoogleServeFixture()
        defer { f.stop() }
        let (saveURL, _) = try f.generate(serial: "T-1")
        let published = try waitUntil(timeout: 60) { try f.calls("POST", "loyaltyClass").count >= 3 }
        try #require(published, "the template's classes never reached the stand-in: \(f.diagnostics)")
        #expect(try f.save(try #require(saveURL)) == 200)
        let before = Set(
            try f.calls("POST", "loyaltyClass").compactMap { ($0["body"] as? [String: Any])?["id"] as? String })

        // The issuer's name changes: a class field, so every class of the template changes (and its ID with it).
        let folder = f.tmp.path("loyalty")
        try FileManager.default.copyItem(atPath: GoogleServeFixture.loyalty, toPath: folder)
        let passJSON = folder + "/pass.json"
        let text = try String(contentsOfFile: passJSON, encoding: .utf8)
        try text.replacingOccurrences(of: "\"PassMint Coffee\"", with: "\"PassMint Coffee Roasters\"")
            .write(toFile: passJSON, atomically: true, encoding: .utf8)
        let publish = try CLI.passmint(
            ["templates", "publish", "loyalty", folder] + f.serve.storeArguments + DevIdentity.signingArgs)
        try #require(publish.status == 0, "\(publish.stderr)")
        let moved = try waitUntil(timeout: 60) { try f.calls("PATCH", Self.objectPath("T-1")).count == 1 }
        try #require(moved, "the object was not patched: \(f.diagnostics)")
        let inserted = try f.calls("POST", "loyaltyClass").compactMap { $0["body"] as? [String: Any] }
            .filter { !before.contains(($0["id"] as? String) ?? "") }
        #expect(inserted.count == 3, "\(inserted.map { $0["id"] ?? "" })")
        #expect(inserted.allSatisfy { $0["issuerName"] as? String == "PassMint Coffee Roasters" })
        let patch = try #require(try f.calls("PATCH", Self.objectPath("T-1")).first?["body"] as? [String: Any])
        #expect(inserted.contains { $0["id"] as? String == patch["classId"] as? String }, "\(patch["classId"] ?? "")")
        #expect(try f.calls("POST", Self.objectPath("T-1") + "/addMessage").isEmpty, "nothing Apple announces changed")
        let refused = try f.refused()
        #expect(refused.isEmpty, "\(refused)")
    }

    @Test(
        "Google's 503 and 429 are retried with back-off; a PATCH of an object Google lacks (404) becomes an insert",
        .enabled(if: GoogleWalletSupport.available, GoogleServeFixture.skipReason))
    func transientAnswers() throws {
        let f = try GoogleServeFixture()
        defer { f.stop() }
        _ = try f.generate(serial: "G-2")  // never saved: Google has no object yet
        let published = try waitUntil(timeout: 60) { try f.calls("POST", "loyaltyClass").count >= 3 }
        try #require(published, "the template's classes never reached the stand-in: \(f.diagnostics)")
        try f.setControl([
            "fail": [
                ["method": "PATCH", "pathContains": "G-2", "status": 503, "times": 1],
                ["method": "PATCH", "pathContains": "G-2", "status": 429, "times": 1, "retryAfter": 1],
            ]
        ])
        #expect(try f.update("G-2", ["points=42"]).status == 0)
        let object = Self.objectPath("G-2")
        let inserted = try waitUntil(timeout: 60) {
            try f.calls("POST", "loyaltyObject").contains { Self.points($0["body"]) == 42 }
        }
        try #require(inserted, "the object was never inserted: \(f.serve.serve.stderr)")
        let statuses = try f.calls("PATCH", object, status: nil).compactMap { $0["status"] as? Int }
        #expect(statuses == [503, 429, 404], "\(statuses)")
        #expect(try f.calls("POST", "loyaltyObject").count == 1)
        #expect(try f.refused().isEmpty)
        let log = f.serve.serve.stderr
        #expect(log.contains("HTTP 503") || log.contains("retried"), "\(log)")
    }

    @Test(
        "expiry and void patch the object; an insert that meets an object saved meanwhile (409) becomes a PATCH",
        .enabled(if: GoogleWalletSupport.available, GoogleServeFixture.skipReason))
    func expiryVoidAndConflict() throws {
        let f = try GoogleServeFixture()
        defer { f.stop() }
        let (saveURL, _) = try f.generate(serial: "V-1")
        let published = try waitUntil(timeout: 60) { try f.calls("POST", "loyaltyClass").count >= 3 }
        try #require(published, "the template's classes never reached the stand-in: \(f.diagnostics)")
        #expect(try f.save(try #require(saveURL)) == 200)
        let object = Self.objectPath("V-1")

        // Expiry: the end of the object's valid time interval (Google then lists it under expired passes).
        let expiry = try f.update("V-1", ["expirationDate=2030-01-31T12:00:00Z"])
        try #require(expiry.status == 0, "\(expiry.stderr)")
        let expired = try waitUntil(timeout: 60) { try f.calls("PATCH", object).count == 1 }
        try #require(expired, "the expiry never reached the stand-in: \(f.diagnostics)")
        let interval = (try f.calls("PATCH", object).first?["body"] as? [String: Any])?["validTimeInterval"]
        let end = ((interval as? [String: Any])?["end"] as? [String: Any])?["date"] as? String
        #expect(end?.hasPrefix("2030-01-31T12:00:00") == true, "\(interval ?? "no validTimeInterval")")

        // Void, with Google answering the PATCH 404 once: the insert that follows meets the saved object (409,
        // the stand-in's own answer) and the worker PATCHes again.
        try f.setControl(["fail": [["method": "PATCH", "pathContains": "V-1", "status": 404, "times": 1]]])
        let void = try CLI.passmint(["update", "V-1", "--void"] + f.serve.storeArguments + DevIdentity.signingArgs)
        try #require(void.status == 0, "\(void.stderr)")
        let voided = try waitUntil(timeout: 60) { try f.calls("PATCH", object).count == 2 }
        try #require(voided, "the void never reached the stand-in: \(f.diagnostics)")
        let statuses = try f.calls("PATCH", object, status: nil).compactMap { $0["status"] as? Int }
        #expect(statuses == [200, 404, 200], "\(statuses)")
        #expect(try f.calls("POST", "loyaltyObject", status: nil).compactMap { $0["status"] as? Int } == [409])
        let state = (try f.calls("PATCH", object).last?["body"] as? [String: Any])?["state"] as? String
        #expect(state == "INACTIVE")
        #expect(try f.refused().isEmpty)
    }

    @Test(
        "OAuth access tokens: a token that expires within a minute is never reused; one valid for an hour serves every call",
        .enabled(if: GoogleWalletSupport.available, GoogleServeFixture.skipReason))
    func accessTokens() throws {
        let f = try GoogleServeFixture()
        defer { f.stop() }
        func tokens() throws -> Int { try f.requests().filter { $0["path"] as? String == "/token" }.count }
        func apiCalls() throws -> Int {
            try f.requests().filter { ($0["path"] as? String)?.hasPrefix("/walletobjects/") == true }.count
        }
        /// The change reached Google and the outbox is empty (its addMessage, which follows the PATCH, is sent too).
        func arrived(_ points: Int) throws -> Bool {
            try waitUntil(timeout: 60) {
                try f.calls("PATCH", Self.objectPath("A-1"), status: nil).contains { Self.points($0["body"]) == points }
                    && f.serve.count("google_outbox") == 0
            }
        }
        // Tokens valid for 30 s, inside the minute's margin: every call fetches its own.
        try f.setControl(["tokenLifetime": 30])
        let (saveURL, _) = try f.generate(serial: "A-1")
        let published = try waitUntil(timeout: 60) { try f.calls("POST", "loyaltyClass").count >= 3 }
        try #require(published, "the template's classes never reached the stand-in: \(f.diagnostics)")
        #expect(try f.save(try #require(saveURL)) == 200)
        #expect(try f.update("A-1", ["points=11"]).status == 0)
        try #require(try arrived(11), "points=11 never arrived: \(f.diagnostics)")
        let first = (tokens: try tokens(), calls: try apiCalls())
        #expect(first.calls >= 4)
        #expect(first.tokens == first.calls, "\(first)")

        // Tokens valid for an hour: the next one serves every later call.
        try f.setControl(["tokenLifetime": 3600])
        for points in [12, 13] {
            #expect(try f.update("A-1", ["points=\(points)"]).status == 0)
            try #require(try arrived(points), "points=\(points) never arrived: \(f.diagnostics)")
        }
        #expect(try apiCalls() >= first.calls + 2)
        #expect(try tokens() == first.tokens + 1)
        #expect(try f.requests().filter { $0["status"] as? Int == 401 }.isEmpty, "a token was sent expired")
        #expect(try f.refused().isEmpty)
    }

    @Test(
        "SIGKILL of serve with 1,000 Google updates pending: each arrives after the restart, none twice",
        .enabled(if: GoogleWalletSupport.available, GoogleServeFixture.skipReason), .timeLimit(.minutes(8)),
        arguments: StoreBackend.all)
    func killWithPendingUpdates(backend: StoreBackend) throws {
        let members = 1000
        // A fixed port: the passes' web service URL (where Google fetches their images) outlives the restart.
        let f = try GoogleServeFixture(
            postgres: backend == .postgres ? try TestPostgres.freshSchema() : nil, fixedPort: true)
        defer { f.stop() }
        let csv = f.tmp.path("members.csv")
        let rows = (0..<members).map { "K-\($0),\($0)" }
        try ("serialNumber,points\n" + rows.joined(separator: "\n") + "\n").write(
            toFile: csv, atomically: true, encoding: .utf8)
        let batch = try CLI.passmint(
            ["batch", "--template", GoogleServeFixture.loyalty, "--csv", csv, "--out", f.tmp.path("out")]
                + f.serve.storeArguments
                + ["--web-service-url", f.serve.base + "/", "--google", "--google-class-published"]
                + DevIdentity.signingArgs,
            environment: f.environment)
        try #require(batch.status == 0, "\(batch.stderr)")
        #expect(try f.serve.count("google_objects") == members)
        let published = try waitUntil(timeout: 60) { try f.calls("POST", "loyaltyClass").count >= 3 }
        try #require(published, "the template's classes never reached the stand-in: \(f.diagnostics)")

        // Google slows down; 1,000 changes are queued; serve is killed while it works through them.
        try f.setControl(["delayMs": 20])
        let changes = f.tmp.path("changes.csv")
        try ("serialNumber,points\n" + (0..<members).map { "K-\($0),\(5000 + $0)" }.joined(separator: "\n") + "\n")
            .write(toFile: changes, atomically: true, encoding: .utf8)
        let update = try CLI.passmint(
            ["update", "--csv", changes] + f.serve.storeArguments + DevIdentity.signingArgs)
        try #require(update.status == 0, "\(update.stderr)")
        func written() throws -> [String: Int] {
            var counts: [String: Int] = [:]
            for call in try f.requests() where call["status"] as? Int == 200 {
                guard let method = call["method"] as? String, method == "PATCH" || method == "POST",
                    let path = call["path"] as? String, path.hasPrefix("/walletobjects/v1/loyaltyObject"),
                    !path.hasSuffix("/addMessage"), let body = call["body"] as? [String: Any],
                    let id = body["id"] as? String ?? path.split(separator: "/").last.map(String.init),
                    let points = Self.points(body), points >= 5000
                else { continue }
                counts[id, default: 0] += 1
            }
            return counts
        }
        let started = try waitUntil(timeout: 120) { try written().count >= 50 }
        try #require(started, "Google got too few updates before the kill: \(f.serve.serve.stderr)")
        try f.setControl(["delayMs": 0])
        try f.serve.killAndRestart()
        let beforeKill = try written().count
        #expect(beforeKill < members, "every update arrived before the kill; the test proved nothing")

        // Rows the killed process had claimed come back when their lease ends (60 s), marked in doubt.
        let arrived = try waitUntil(timeout: 300) { try written().count == members }
        // Each object's message follows its PATCH: what was sent is counted once the outbox is empty.
        let drained = try waitUntil(timeout: 60) { try f.serve.count("google_outbox") == 0 }
        #expect(drained)
        let counts = try written()
        #expect(arrived, "\(members - counts.count) objects never got their update (\(beforeKill) before the kill)")
        // The rows the killed process had claimed were looked at before they were written again.
        let looked = try f.requests().filter {
            $0["method"] as? String == "GET" && ($0["path"] as? String)?.contains("/loyaltyObject/") == true
        }
        #expect(!looked.isEmpty, "no row came back in doubt")
        let twice = counts.filter { $0.value > 1 }
        #expect(twice.isEmpty, "written more than once: \(twice.sorted { $0.key < $1.key }.prefix(10))")
        var messages: [String: Int] = [:]
        for call in try f.requests()
        where call["status"] as? Int == 200 && (call["path"] as? String)?.hasSuffix("/addMessage") == true {
            messages[(call["path"] as? String) ?? "", default: 0] += 1
        }
        #expect(messages.count == members, "\(messages.count) objects got their message")
        #expect(messages.values.allSatisfy { $0 == 1 }, "a message was sent twice")
        #expect(try f.refused().isEmpty)
    }

    @Test(
        "a save callback signed as Google signs it is counted in stats; forged, tampered, expired or replayed ones get 4xx and are not",
        .enabled(if: GoogleWalletSupport.available, GoogleServeFixture.skipReason))
    func callbacks() throws {
        let f = try GoogleServeFixture()
        defer { f.stop() }
        _ = try f.generate(serial: "C-1")
        let object = "\(Self.issuer).C-1"
        let classID = "\(Self.issuer).loyalty-0123456789ab"
        func googleFigures() throws -> [String: Int] {
            let stats = try CLI.passmint(["stats", "--json"] + f.serve.storeArguments)
            let json = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
            let total = (json?["totals"] as? [[String: Any]])?.first
            return (total?["google"] as? [String: Int]) ?? [:]
        }
        let saved = try f.callback(object: object, class: classID, nonce: "nonce-1")
        #expect(saved.status == 200, "\(saved.body)")
        #expect(try googleFigures() == ["saved": 1, "deleted": 0, "active": 1, "silentUpdates": 0])

        let replay = try f.callback(object: object, class: classID, nonce: "nonce-1")
        #expect(replay.status == 409, "\(replay.body)")
        // A root key Google never had signed the intermediate key: forged.
        let otherRoot = f.tmp.path("other-root")
        _ = try CLI.run(GoogleWalletSupport.python, [GoogleServeFixture.callbackScript, "keys", otherRoot])
        for (extra, words) in [
            (["--root", otherRoot], "root key"), (["--tamper"], "signature"), (["--message-expired"], "expired"),
            (["--key-expired"], "expired"),
        ] {
            let refused = try f.callback(object: object, class: classID, nonce: "nonce-\(extra[0])", extra: extra)
            #expect(refused.status == 401, "\(extra): \(refused.body)")
            #expect(refused.body.contains(words), "\(extra): \(refused.body)")
        }
        let otherIssuer = try f.callback(object: "1234.C-1", class: "1234.x", nonce: "nonce-x")
        #expect(otherIssuer.status == 401)
        let garbage = try f.serve.http("POST", "/google/callbacks", body: #"{"protocolVersion": "ECv2"}"#)
        #expect(garbage.status == 400)
        #expect(try googleFigures() == ["saved": 1, "deleted": 0, "active": 1, "silentUpdates": 0])

        let deleted = try f.callback(object: object, class: classID, event: "del", nonce: "nonce-2")
        #expect(deleted.status == 200)
        #expect(try googleFigures() == ["saved": 1, "deleted": 1, "active": 0, "silentUpdates": 0])
        let table = try CLI.passmint(["stats"] + f.serve.storeArguments)
        #expect(table.stdout.contains("g saved"), "\(table.stdout)")
    }

    static let android =
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36"
    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1"
    static let desktop =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"

    /// Headless Chromium with `agent`; pay.google.com resolves to the stand-in (its save page).
    static func chromium(_ arguments: [String], agent: String, f: GoogleServeFixture) throws -> CLI.Result {
        try CLI.run(
            "/usr/bin/chromium",
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--user-data-dir=\(f.tmp.path("chromium-\(UUID().uuidString)"))",
                "--user-agent=\(agent)", "--host-resolver-rules=MAP pay.google.com:443 127.0.0.1:\(f.standInPort)",
                "--ignore-certificate-errors", "--hide-scrollbars",
            ] + arguments)
    }

    @Test(
        "/p/{token} in headless Chromium: Android lands on the Google save link; a desktop sees both buttons; an iPhone gets the pass",
        .enabled(
            if: GoogleWalletSupport.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
            "needs chromium and the venv of scripts/install-deps"))
    func distributionLinkInChromium() throws {
        let f = try GoogleServeFixture()
        defer { f.stop() }
        // Issued without --google: the link still offers Google Wallet, and links the pass's object on use.
        let (_, link) = try f.generate(serial: "P-1", google: false)
        let published = try waitUntil(timeout: 60) { try f.calls("POST", "loyaltyClass").count >= 3 }
        try #require(published, "the template's classes never reached the stand-in: \(f.diagnostics)")

        let android = try Self.chromium(["--dump-dom", link], agent: Self.android, f: f)
        #expect(android.stdout.contains("Saved to Google Wallet (stand-in)"), "\(android.stdout.prefix(500))")
        let saves = try f.requests().filter { ($0["path"] as? String)?.hasPrefix("/gp/v/save/") == true }
        #expect(saves.count == 1)
        let jwt = try #require((saves.first?["body"] as? [String: Any])?["jwt"] as? String)
        #expect(android.stdout.contains(jwt))
        let check = try GoogleWalletSupport.checkLink("https://pay.google.com/gp/v/save/" + jwt, keyFile: f.keyFile)
        #expect(check.ok, "\(check.errors)")
        #expect(try ServeTools.sqlite(f.serve.db, "SELECT object_id FROM google_objects") == "\(Self.issuer).P-1")

        // An iPhone gets the signed pass itself, as without --google.
        let linkPath = String(link.dropFirst(f.serve.base.count))
        let iPhone = try f.serve.http("GET", linkPath, headers: ["User-Agent": Self.iPhone])
        #expect(iPhone.status == 200)
        #expect(iPhone.headers["content-type"] == "application/vnd.apple.pkpass", "\(iPhone.headers)")
        #expect(iPhone.body.prefix(4) == Data([0x50, 0x4B, 0x03, 0x04]), "a .pkpass is a zip")

        let shot = f.tmp.path("desktop.png")
        let desktop = try Self.chromium(
            ["--window-size=1200,1000", "--screenshot=\(shot)", link], agent: Self.desktop, f: f)
        #expect(FileManager.default.fileExists(atPath: shot), "\(desktop.stderr)")
        let dom = try Self.chromium(["--dump-dom", link], agent: Self.desktop, f: f).stdout
        #expect(dom.contains(#"id="add-apple""#) && dom.contains("Add to Apple Wallet"), "\(dom.prefix(400))")
        #expect(dom.contains(#"id="add-google""#) && dom.contains("Add to Google Wallet"), "\(dom.prefix(400))")
        #expect(try f.requests().filter { ($0["path"] as? String)?.hasPrefix("/gp/v/save/") == true }.count == 1)
        // The screenshot shows both buttons: Apple's black one and Google's blue one (#1a73e8), each a solid block.
        let pixels = try CLI.run(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sys
                from PIL import Image
                image = Image.open(sys.argv[1]).convert("RGB")
                data = list(image.getdata())
                blue = sum(1 for p in data if abs(p[0] - 26) < 12 and abs(p[1] - 115) < 12 and abs(p[2] - 232) < 12)
                black = sum(1 for p in data if max(p) < 12)
                print(blue, black)
                """, shot,
            ])
        let counts = pixels.stdout.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(
            counts.count == 2 && counts[0] > 2000 && counts[1] > 2000,
            "blue, black pixels: \(pixels.stdout) \(pixels.stderr)")
    }
}
