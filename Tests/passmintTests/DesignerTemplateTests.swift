import Foundation
import Testing

/// Pass Designer `.pkpasstemplate` templates end to end: personalization by field key through `generate` and
/// `batch`, checked with `unzip`, `openssl cms -verify` and Python's zipfile (independent of PassMint).
@Suite("Pass Designer templates (end to end)")
struct DesignerTemplateTests {
    static let club = PackagePaths.template("designer-club.pkpasstemplate")
    static let keys = ["MEMBER_NAME", "MEMBER_ID", "TIER"]

    /// pass.json of a .pkpass, read with `unzip -p`.
    static func passJSON(_ pkpass: String) throws -> [String: Any] {
        let result = try CLI.run("unzip", ["-p", pkpass, "pass.json"])
        #expect(result.status == 0, "unzip -p failed: \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// `style.group` → value of every field with `key`.
    static func values(of key: String, in pass: [String: Any]) -> [String: String] {
        var out: [String: String] = [:]
        for style in ["posterGeneric", "generic"] {
            guard let dict = pass[style] as? [String: Any] else { continue }
            for (group, items) in dict {
                for field in items as? [[String: Any]] ?? [] where field["key"] as? String == key {
                    out["\(style).\(group)"] = field["value"].map { "\($0)" }
                }
            }
        }
        return out
    }

    /// Entry names of a .pkpass, from `unzip -Z1` (the bare listing of `unzip -l`).
    static func entries(_ pkpass: String) throws -> [String] {
        try CLI.run("unzip", ["-Z1", pkpass]).stdout.split(separator: "\n").map(String.init)
    }

    /// Checks one personalized pass: the values in both dictionaries, no tooling.json, a valid signature.
    static func check(_ pkpass: String, _ expected: [String: String], tmp: TempDir, verifySignature: Bool = true)
        throws
    {
        let pass = try passJSON(pkpass)
        #expect(pass["posterGeneric"] != nil && pass["generic"] != nil, "\(pkpass): both dictionaries expected")
        for (key, value) in expected {
            let found = values(of: key, in: pass)
            #expect(found.count == 2 && found.values.allSatisfy { $0 == value }, "\(pkpass) \(key): \(found)")
        }
        #expect(!(try entries(pkpass)).contains { $0.hasSuffix("tooling.json") }, "\(pkpass) packs tooling.json")
        if verifySignature { #expect(try BatchTests.opensslVerifies(pkpass, tmp: tmp), "\(pkpass) does not verify") }
    }

    @Test(
        "generate personalizes by key: every field with the key in posterGeneric and generic, reserved keys, no tooling.json"
    )
    func generateByKey() throws {
        let tmp = try TempDir()
        let out = tmp.path("ada.pkpass")
        let result = try CLI.passmint(
            [
                "generate", "--template", Self.club, "--out", out, "--set", "MEMBER_NAME=Ada Lovelace",
                "--set", "MEMBER_ID=M-0042", "--set", "TIER=Platinum", "--set", "POINTS=77",
                "--set", "barcode.message=M-0042", "--set", "relevantDate.start=2027-06-12T19:30+02:00",
            ]
                + DevIdentity.signingArgs)
        #expect(result.status == 0, "generate failed: \(result.stderr)")
        try Self.check(out, ["MEMBER_NAME": "Ada Lovelace", "MEMBER_ID": "M-0042", "TIER": "Platinum"], tmp: tmp)
        _ = try GenerateTests.checkSignedPass(out, in: tmp)
        let pass = try Self.passJSON(out)
        #expect(Self.values(of: "POINTS", in: pass).values.allSatisfy { $0 == "77" })
        let barcodes = try #require(pass["barcodes"] as? [[String: Any]])
        #expect(barcodes.first?["message"] as? String == "M-0042")
        let dates = try #require(pass["relevantDates"] as? [[String: Any]])
        #expect(dates.first?["date"] as? String == "2027-06-12T19:30:00+02:00")
        // With no values at all the template's own values are used (DESIGN contract for shipped templates).
        let plain = tmp.path("plain.pkpass")
        let defaults = try CLI.passmint(
            ["generate", "--template", Self.club, "--out", plain] + DevIdentity.signingArgs)
        #expect(defaults.status == 0, "\(defaults.stderr)")
        try Self.check(plain, ["MEMBER_NAME": "Alex Sample", "TIER": "Gold"], tmp: tmp)
    }

    @Test("a --set key that is neither a field, a key nor reserved is an error with a did-you-mean")
    func unknownKey() throws {
        let tmp = try TempDir()
        let result = try CLI.passmint(
            ["generate", "--template", Self.club, "--out", tmp.path("x.pkpass"), "--set", "MEMBER_NAM=Ada"]
                + DevIdentity.signingArgs)
        #expect(result.status == 1)
        #expect(result.stderr.contains("\"MEMBER_NAM\" is not a field"))
        #expect(result.stderr.contains("did you mean \"MEMBER_NAME\"?"))
        #expect(!FileManager.default.fileExists(atPath: tmp.path("x.pkpass")))
    }

    @Test("a 1,000-row batch: every pass carries its row's values in both dictionaries, no tooling.json, signed")
    func batchThousand() throws {
        let tmp = try TempDir()
        var csv = "MEMBER_NAME,MEMBER_ID,TIER,barcode.message\n"
        let tiers = ["Silver", "Gold", "Platinum"]
        for i in 1...1000 { csv += "Member \(i),ID-\(i),\(tiers[i % 3]),ID-\(i)\n" }
        try csv.write(toFile: tmp.path("members.csv"), atomically: true, encoding: .utf8)
        let result = try CLI.passmint(
            [
                "batch", "--template", Self.club, "--csv", tmp.path("members.csv"), "--out", tmp.path("out"),
                "--jobs", "2", "--report", tmp.path("report.jsonl"),
            ] + DevIdentity.signingArgs)
        #expect(result.status == 0, "batch failed: \(result.stderr)")
        #expect(!result.stderr.contains("is not a field"), "a header was not recognised: \(result.stderr)")
        let report = try BatchTests.report(tmp.path("report.jsonl"))
        #expect(report.count == 1000)
        #expect(report.allSatisfy { $0["status"] as? String == "issued" })
        // All 1,000 read by Python's zipfile in one process; a sample also with unzip and openssl.
        let script = """
            import json, sys, zipfile
            bad = []
            for line in open(sys.argv[1]):
                r = json.loads(line); n = r["line"] - 1
                with zipfile.ZipFile(sys.argv[2] + "/" + r["file"]) as z:
                    names = z.namelist(); p = json.loads(z.read("pass.json"))
                want = {"MEMBER_NAME": "Member %d" % n, "MEMBER_ID": "ID-%d" % n, "TIER": ["Silver", "Gold", "Platinum"][n % 3]}
                for key, value in want.items():
                    got = [f["value"] for s in ("posterGeneric", "generic") for g in p[s].values() for f in g if f["key"] == key]
                    if got != [value, value]: bad.append((r["file"], key, got))
                if p["barcodes"][0]["message"] != "ID-%d" % n: bad.append((r["file"], "barcode", p["barcodes"]))
                if any(x.endswith("tooling.json") for x in names): bad.append((r["file"], "tooling.json packed"))
            print(len(bad), bad[:3])
            """
        let checked = try CLI.run("/usr/bin/python3", ["-c", script, tmp.path("report.jsonl"), tmp.path("out")])
        #expect(checked.status == 0 && checked.stdout.hasPrefix("0 "), "\(checked.stdout)\(checked.stderr)")
        for record in report where (record["line"] as? Int ?? 0) % 40 == 2 {
            let n = (record["line"] as? Int ?? 0) - 1
            try Self.check(
                tmp.path("out/\(record["file"] as? String ?? "")"),
                ["MEMBER_NAME": "Member \(n)", "MEMBER_ID": "ID-\(n)", "TIER": tiers[n % 3]], tmp: tmp)
        }
    }

    @Test("an unknown CSV column is warned about once, with a did-you-mean, and the batch succeeds")
    func batchUnknownColumn() throws {
        let tmp = try TempDir()
        try "MEMBER_NAM,TIER\nAda,Gold\nGrace,Silver\n".write(
            toFile: tmp.path("m.csv"), atomically: true, encoding: .utf8)
        let result = try CLI.passmint(
            ["batch", "--template", Self.club, "--csv", tmp.path("m.csv"), "--out", tmp.path("out"), "--jobs", "1"]
                + DevIdentity.signingArgs)
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.components(separatedBy: "column 'MEMBER_NAM' is not a field").count - 1
        #expect(warnings == 1, "\(result.stderr)")
        #expect(result.stderr.contains("did you mean 'MEMBER_NAME'?"))
    }

    @Test("the zipped template works: a .zip holding the folder, and a flat .pkpasstemplate file")
    func zipped() throws {
        let tmp = try TempDir()
        let templates = CLI.root.appendingPathComponent("Templates")
        let wrapped = try CLI.run(
            "zip", ["-q", "-r", tmp.path("club.zip"), "designer-club.pkpasstemplate"], cwd: templates)
        #expect(wrapped.status == 0, "zip failed: \(wrapped.stderr)")
        let flat = try CLI.run(
            "zip", ["-q", "-r", tmp.path("club.pkpasstemplate"), "."],
            cwd: URL(fileURLWithPath: Self.club))
        #expect(flat.status == 0, "zip failed: \(flat.stderr)")
        for (i, template) in [tmp.path("club.zip"), tmp.path("club.pkpasstemplate")].enumerated() {
            let out = tmp.path("z\(i).pkpass")
            let result = try CLI.passmint(
                [
                    "generate", "--template", template, "--out", out, "--set", "MEMBER_NAME=Zip \(i)",
                    "--set", "MEMBER_ID=Z-\(i)", "--set", "TIER=Silver",
                ] + DevIdentity.signingArgs)
            #expect(result.status == 0, "generate from \(template) failed: \(result.stderr)")
            try Self.check(out, ["MEMBER_NAME": "Zip \(i)", "MEMBER_ID": "Z-\(i)", "TIER": "Silver"], tmp: tmp)
        }
        // A stored pass re-renders from the zipped template: update loads it from the stored path.
        let db = tmp.path("store.db")
        let stored = try CLI.passmint(
            [
                "generate", "--template", tmp.path("club.zip"), "--serial", "ZIP-1", "--db", db, "--web-service-url",
                "https://passes.example/", "--out", tmp.path("stored.pkpass"),
            ] + DevIdentity.signingArgs)
        #expect(stored.status == 0, "\(stored.stderr)")
        let update = try CLI.passmint(
            ["update", "ZIP-1", "--set", "TIER=Platinum", "--db", db] + DevIdentity.signingArgs)
        #expect(update.status == 0, "update failed: \(update.stderr)")
        #expect(update.stdout.contains("TIER"), "\(update.stdout)")
    }

    @Test("a zip whose entries climb out of the template is refused")
    func unsafeZip() throws {
        let tmp = try TempDir()
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w") as z:
                z.writestr("pass.json", "{}")
                z.writestr("../evil.png", "x")
            """
        #expect(try CLI.run("/usr/bin/python3", ["-c", script, tmp.path("evil.zip")]).status == 0)
        let result = try CLI.passmint(
            ["generate", "--template", tmp.path("evil.zip"), "--out", tmp.path("x.pkpass")] + DevIdentity.signingArgs)
        #expect(result.status == 1)
        #expect(result.stderr.contains("points outside the template"), "\(result.stderr)")
    }

    @Test("--compatible derives the generic fallback when tooling.json does not ask for it")
    func compatibleFlag() throws {
        let tmp = try TempDir()
        let copy = tmp.path("poster.pkpasstemplate")
        try FileManager.default.copyItem(atPath: Self.club, toPath: copy)
        try #"{"designerVersion": "1.0", "automaticallyGenerateCompatiblePass": false}"#
            .write(toFile: copy + "/tooling.json", atomically: true, encoding: .utf8)
        let without = tmp.path("without.pkpass"), with = tmp.path("with.pkpass")
        let plain = try CLI.passmint(
            ["generate", "--template", copy, "--out", without, "--set", "MEMBER_NAME=Ada"] + DevIdentity.signingArgs)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try Self.passJSON(without)["generic"] == nil)
        let flagged = try CLI.passmint(
            ["generate", "--template", copy, "--out", with, "--set", "MEMBER_NAME=Ada", "--compatible"]
                + DevIdentity.signingArgs)
        #expect(flagged.status == 0, "\(flagged.stderr)")
        try Self.check(with, ["MEMBER_NAME": "Ada"], tmp: tmp)
        // batch takes the flag too
        try "MEMBER_NAME\nGrace\n".write(toFile: tmp.path("m.csv"), atomically: true, encoding: .utf8)
        let batch = try CLI.passmint(
            [
                "batch", "--template", copy, "--csv", tmp.path("m.csv"), "--out", tmp.path("out"), "--compatible",
                "--report", tmp.path("r.jsonl"),
            ] + DevIdentity.signingArgs)
        #expect(batch.status == 0, "\(batch.stderr)")
        let file = try #require(try BatchTests.report(tmp.path("r.jsonl")).first?["file"] as? String)
        try Self.check(tmp.path("out/" + file), ["MEMBER_NAME": "Grace"], tmp: tmp)
    }
}

/// The stored template path of a zipped template, and `--compatible`, survive into the passes `serve` re-renders.
@Suite("Pass Designer templates: serve re-renders (end to end)", .serialized)
struct DesignerTemplateServeTests {
    @Test("a pass issued from a zipped template with --compatible keeps both dictionaries after an update")
    func serveKeepsFallback() throws {
        let f = try ServeFixture(python: nil)
        defer { f.stop() }
        // A poster-only copy whose tooling.json does not ask for the fallback, zipped.
        let copy = f.tmp.path("poster.pkpasstemplate")
        try FileManager.default.copyItem(atPath: DesignerTemplateTests.club, toPath: copy)
        try #"{"automaticallyGenerateCompatiblePass": false}"#
            .write(toFile: copy + "/tooling.json", atomically: true, encoding: .utf8)
        let zipped = f.tmp.path("poster.zip")
        #expect(try CLI.run("zip", ["-q", "-r", zipped, "."], cwd: URL(fileURLWithPath: copy)).status == 0)
        let out = f.tmp.path("issued.pkpass")
        let issued = try CLI.passmint(
            [
                "generate", "--template", zipped, "--compatible", "--serial", "SRV-1", "--db", f.db,
                "--web-service-url",
                f.base + "/", "--set", "MEMBER_NAME=Ada", "--out", out,
            ] + DevIdentity.signingArgs)
        #expect(issued.status == 0, "\(issued.stderr)")
        let token = try #require(try DesignerTemplateTests.passJSON(out)["authenticationToken"] as? String)
        let update = try f.update("SRV-1", ["MEMBER_NAME=Grace", "TIER=Platinum"])
        #expect(update.status == 0, "\(update.stderr)")
        let reply = try f.http(
            "GET", "/v1/passes/\(ServeTools.passType)/SRV-1", headers: ["Authorization": "ApplePass \(token)"])
        #expect(reply.status == 200, "\(reply.text)")
        let served = f.tmp.path("served.pkpass")
        try reply.body.write(to: URL(fileURLWithPath: served))
        try DesignerTemplateTests.check(served, ["MEMBER_NAME": "Grace", "TIER": "Platinum"], tmp: f.tmp)
    }
}
