import Foundation
import PassMintTestSupport
import Testing

/// Next month's CSV through `batch --db` again: the stored passes are updated, never replaced. Checked with the
/// real `serve`, a device registered through it, the APNs stand-in, sqlite3 and unzip.
@Suite("batch --db twice: a member's pass is never lost (end to end)", .serialized)
struct MemberReissueTests {
    static let members = 20
    static let serials = (0..<members).map { String(format: "MBR-%03d", $0) }

    /// The members' CSV, each row's points given by `points(i)`.
    static func csv(points: (Int) -> Int) -> String {
        var text = "serialNumber,memberName,points,tier\n"
        for (i, serial) in serials.enumerated() { text += "\(serial),Member \(i),\(points(i)),Silver\n" }
        return text
    }

    /// The report's lines, by serial number.
    static func report(_ path: String) throws -> [String: [String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var rows: [String: [String: Any]] = [:]
        for line in text.split(separator: "\n") {
            let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            rows[try #require(row["serialNumber"] as? String)] = row
        }
        return rows
    }

    @Test(
        "second run with ten members' points changed: tokens kept, a registered device downloads the update with its old token and is pushed once, unchanged members are not pushed, the report says updated/unchanged",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
    func secondRunUpdates() throws {
        let f = try ServeFixture(python: TestTools.pythonWithH2)
        defer { f.stop() }
        let csv = f.tmp.path("members.csv"), out = f.tmp.path("passes")
        func batch(_ report: String) throws -> CLI.Result {
            try CLI.passmint(
                [
                    "batch", "--template", PackagePaths.template("loyalty"), "--csv", csv, "--out", out, "--report",
                    report, "--web-service-url", f.base + "/",
                ] + f.storeArguments + DevIdentity.signingArgs)
        }
        try Self.csv { 100 + $0 }.write(toFile: csv, atomically: true, encoding: .utf8)
        let first = try batch(f.tmp.path("first.jsonl"))
        try #require(first.status == 0, "\(first.stderr)")
        var tokens: [String: String] = [:]
        for serial in Self.serials {
            tokens[serial] = try #require(
                try ServeTools.passJSON("\(out)/\(serial).pkpass")["authenticationToken"] as? String)
        }
        let linksBefore = try ServeTools.sqlite(
            f.db, "SELECT group_concat(serial || ':' || token_hash) FROM (SELECT * FROM pass_links ORDER BY serial)")
        // Members 0–11 put the pass on a phone: registered through serve with the token of their pass.
        for i in 0..<12 {
            let reply = try f.register(
                device: "phone\(i)", serial: Self.serials[i], token: tokens[Self.serials[i]]!,
                pushToken: pushToken("c", i))
            #expect(reply.status == 201, "\(reply.text)")
        }

        // Next month: members 0–9 have new points, 10–19 are as they were.
        try Self.csv { $0 < 10 ? 500 + $0 : 100 + $0 }.write(toFile: csv, atomically: true, encoding: .utf8)
        let second = try batch(f.tmp.path("second.jsonl"))
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("20 records, 0 issued, 10 updated, 10 unchanged"), "\(second.stderr)")
        let rows = try Self.report(f.tmp.path("second.jsonl"))
        for (i, serial) in Self.serials.enumerated() {
            let row = try #require(rows[serial])
            #expect(row["status"] as? String == (i < 10 ? "updated" : "unchanged"), "\(serial): \(row)")
            #expect(row["file"] as? String == "\(serial).pkpass" && row["line"] as? Int == i + 2)
            #expect(row.keys.contains("error"))
            // Every member keeps their token: in the store and in the pass written again.
            #expect(
                try ServeTools.sqlite(f.db, "SELECT auth_token FROM passes WHERE serial = '\(serial)'")
                    == tokens[serial])
            let written = try ServeTools.passJSON("\(out)/\(serial).pkpass")
            #expect(written["authenticationToken"] as? String == tokens[serial])
        }
        // Links and the issue figures are kept: no new link, no second issue.
        #expect(
            try ServeTools.sqlite(
                f.db, "SELECT group_concat(serial || ':' || token_hash) FROM (SELECT * FROM pass_links ORDER BY serial)"
            ) == linksBefore)
        #expect(try ServeTools.sqlite(f.db, "SELECT sum(issued) FROM install_days") == String(Self.members))

        // The phone of a changed member downloads the new version with the token it has held all along.
        for i in 0..<10 {
            let reply = try f.download(serial: Self.serials[i], token: tokens[Self.serials[i]]!)
            #expect(reply.status == 200, "\(Self.serials[i]): \(reply.status)")
            let file = f.tmp.path("downloaded-\(i).pkpass")
            try reply.body.write(to: URL(fileURLWithPath: file))
            let fields = try #require((try ServeTools.passJSON(file)["storeCard"] as? [String: Any]))
            let all = ["headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields"]
                .flatMap { fields[$0] as? [[String: Any]] ?? [] }
            let points = all.first { $0["key"] as? String == "points" }?["value"] as? Int
            #expect(points == 500 + i, "\(Self.serials[i]): points \(String(describing: points))")
        }

        // Pushed once per changed member's device; the unchanged members' devices get none.
        let changed = Set((0..<10).map { pushToken("c", $0) })
        let delivered = try waitUntil(timeout: 30) {
            let outbox = try f.count("push_outbox")
            return try changed.isSubset(of: f.pushedTokens()) && outbox == 0
        }
        let pushedNow = try f.pushedTokens(), outboxLeft = try f.count("push_outbox")
        #expect(delivered, "pushed: \(pushedNow), outbox \(outboxLeft)")
        let pushes = try f.apnsRequests().compactMap { ($0["path"] as? String)?.split(separator: "/").last }
        for token in changed { #expect(pushes.filter { $0 == token }.count == 1, "\(token)") }
        for i in 10..<12 { #expect(!pushes.contains { $0 == pushToken("c", i) }, "member \(i) was pushed") }
        #expect(try f.count("registrations") == 12)
    }
}
