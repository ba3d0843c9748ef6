import Foundation
import Testing

/// Member photos end to end: `--set image.thumbnail`, CSV columns, image fields, `--images`, the store.
@Suite("member photos (end to end)")
struct PhotoTests {
    static let status = PackagePaths.template("status")

    static func sizes(_ entry: [String: Any]) -> [String: String] { entry["sizes"] as? [String: String] ?? [:] }

    @Test("a 1,000-row batch with a different JPEG per row: every pass has its own thumbnail at 90, 180 and 270 px")
    func thousandPhotos() throws {
        let tmp = try TempDir()
        let count = 1000
        try FileManager.default.createDirectory(atPath: tmp.path("data/photos"), withIntermediateDirectories: true)
        try TestPhotos.distinctJPEGs(count: count, in: tmp.path("data/photos"))
        try BatchTests.writeCSV(
            header: "serialNumber,memberName,tier,image.thumbnail", count: count, to: tmp.path("data/members.csv")
        ) {
            "P\($0),Member \($0),\(["Silver", "Gold", "Platinum"][$0 % 3]),photos/p-\(String(format: "%03d", $0)).jpg"
        }
        let result = try CLI.passmint(
            [
                "batch", "--template", Self.status, "--csv", tmp.path("data/members.csv"), "--out", tmp.path("out"),
                "--report", tmp.path("report.jsonl"), "--jobs", "2",
            ] + DevIdentity.signingArgs)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try BatchTests.report(tmp.path("report.jsonl"))
        #expect(report.count == count)
        #expect(report.allSatisfy { $0["status"] as? String == "issued" })
        let passes = (0..<count).map { tmp.path("out/P\($0).pkpass") }
        let inspected = try PhotoEntries.inspect(passes)
        #expect(inspected.count == count)
        #expect(inspected.allSatisfy { Self.sizes($0) == PhotoEntries.thumbnailSizes })
        #expect(inspected.allSatisfy { $0["manifestOK"] as? Bool == true })
        #expect(inspected.allSatisfy { ($0["stored"] as? [String: Bool])?.values.allSatisfy { $0 } == true })
        let hashes = Set(inspected.compactMap { ($0["sha1"] as? [String: String])?["thumbnail.png"] })
        #expect(hashes.count == count, "every pass's photo (its manifest SHA-1) differs")
        #expect(try BatchTests.opensslVerifies(passes[0], tmp: tmp))
        #expect(try BatchTests.opensslVerifies(passes[count - 1], tmp: tmp))
    }

    @Test("bad photo files are reported by line and file; the other records are issued; no pass or temp file for them")
    func badPhotos() throws {
        let tmp = try TempDir()
        let photos = tmp.path("data/photos")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try CLI.check("convert", ["-size", "300x200", "plasma:", "-quality", "85", photos + "/ok.jpg"])
        try CLI.check("convert", ["-size", "200x300", "gradient:red-blue", photos + "/ok2.png"])
        try Data("not a photo at all\n".utf8).write(to: URL(fileURLWithPath: photos + "/text.jpg"))
        try TestPhotos.sixtyMegapixelPNG(photos + "/big.png")
        try TestPhotos.writePNGBomb(photos + "/bomb.png")
        try CLI.check("convert", ["-size", "50x50", "xc:red", tmp.path("outside.jpg")])
        try FileManager.default.createSymbolicLink(
            atPath: photos + "/link.jpg", withDestinationPath: tmp.path("outside.jpg"))
        let rows = [
            "S2,photos/ok.jpg",  // line 2
            "S3,photos/missing.jpg",  // line 3
            "S4,photos/text.jpg",  // line 4
            "S5,photos/big.png",  // line 5
            "S6,photos/bomb.png",  // line 6
            "S7,../outside.jpg",  // line 7
            "S8,photos/link.jpg",  // line 8
            "S9,photos/ok2.png",  // line 9
        ]
        try BatchTests.writeCSV(
            (["serialNumber,image.thumbnail"] + rows).joined(separator: "\n") + "\n", to: tmp.path("data/in.csv"))
        let result = try CLI.passmint(
            [
                "batch", "--template", Self.status, "--csv", tmp.path("data/in.csv"), "--out", tmp.path("out"),
                "--report", tmp.path("report.jsonl"), "--jobs", "2",
            ] + DevIdentity.signingArgs)
        #expect(result.status == 1, "a batch with failures exits 1: \(result.stderr)")
        let report = try BatchTests.report(tmp.path("report.jsonl"))
        #expect(report.map { $0["line"] as? Int } == Array(2...9))
        let failed = Dictionary(
            uniqueKeysWithValues: report.filter { $0["status"] as? String == "failed" }.map {
                ($0["line"] as? Int ?? 0, $0["error"] as? String ?? "")
            })
        #expect(failed.keys.sorted() == [3, 4, 5, 6, 7, 8])
        #expect(failed[3]?.contains("photos/missing.jpg") == true && failed[3]?.contains("does not exist") == true)
        #expect(failed[4]?.contains("photos/text.jpg") == true && failed[4]?.contains("not a PNG or JPEG") == true)
        #expect(failed[5]?.contains("photos/big.png") == true && failed[5]?.contains("60 megapixels") == true)
        #expect(failed[6]?.contains("photos/bomb.png") == true && failed[6]?.contains("decompression bomb") == true)
        #expect(failed[7]?.contains("../outside.jpg") == true && failed[7]?.contains("outside") == true)
        #expect(failed[8]?.contains("photos/link.jpg") == true && failed[8]?.contains("outside") == true)
        let made = try FileManager.default.contentsOfDirectory(atPath: tmp.path("out")).sorted()
        #expect(made == ["S2.pkpass", "S9.pkpass"], "only the good records have passes, and no temporary file is left")
        let inspected = try PhotoEntries.inspect([tmp.path("out/S2.pkpass"), tmp.path("out/S9.pkpass")])
        #expect(inspected.allSatisfy { Self.sizes($0) == PhotoEntries.thumbnailSizes })
    }

    @Test("an image field of template.json, --images DIR for a CSV, and --data paths from the data file's folder")
    func imageFieldAndFolders() throws {
        let tmp = try TempDir()
        let template = tmp.path("tpl")
        try FileManager.default.copyItem(atPath: Self.status, toPath: template)
        let tj = URL(fileURLWithPath: template + "/template.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: tj)) as? [String: Any])
        var fields = try #require(json["fields"] as? [[String: Any]])
        // The shipped status template already has this field; a copy without it gets it here.
        if !fields.contains(where: { $0["name"] as? String == "photo" }) {
            fields.append(["name": "photo", "type": "image", "image": "thumbnail", "required": false])
        }
        json["fields"] = fields
        try JSONSerialization.data(withJSONObject: json).write(to: tj)
        try FileManager.default.createDirectory(atPath: tmp.path("pictures"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: tmp.path("records"), withIntermediateDirectories: true)
        try CLI.check("convert", ["-size", "400x300", "plasma:", tmp.path("pictures/ada.jpg")])
        try BatchTests.writeCSV("serialNumber,photo\nF1,ada.jpg\n", to: tmp.path("records/in.csv"))
        let batch = try CLI.passmint(
            [
                "batch", "--template", template, "--csv", tmp.path("records/in.csv"), "--out", tmp.path("out"),
                "--images", tmp.path("pictures"),
            ] + DevIdentity.signingArgs)
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(!batch.stderr.contains("photo' is not a field"))
        // Without --images the CSV's folder is the base, which has no ada.jpg.
        let without = try CLI.passmint(
            [
                "batch", "--template", template, "--csv", tmp.path("records/in.csv"), "--out", tmp.path("out2"),
                "--report", tmp.path("r2.jsonl"),
            ] + DevIdentity.signingArgs)
        #expect(without.status == 1)
        let error = try BatchTests.report(tmp.path("r2.jsonl")).first?["error"] as? String ?? ""
        #expect(error.contains("ada.jpg") && error.contains("does not exist"), "\(error)")

        // generate --data: the data file's folder is the base for its values.
        try CLI.check("cp", [tmp.path("pictures/ada.jpg"), tmp.path("records/ada.jpg")])
        try Data(#"{"image.thumbnail": "ada.jpg", "memberName": "Ada"}"#.utf8).write(
            to: URL(fileURLWithPath: tmp.path("records/ada.json")))
        let generated = try CLI.passmint(
            [
                "generate", "--template", Self.status, "--data", tmp.path("records/ada.json"), "--out",
                tmp.path("ada.pkpass"),
            ]
                + DevIdentity.signingArgs, cwd: tmp.url)
        #expect(generated.status == 0, "\(generated.stderr)")
        let inspected = try PhotoEntries.inspect([tmp.path("out/F1.pkpass"), tmp.path("ada.pkpass")])
        #expect(inspected.allSatisfy { Self.sizes($0) == PhotoEntries.thumbnailSizes })
    }

    @Test("generate --db with a photo: serve re-renders it after the original is deleted; update replaces it")
    func storedPhoto() throws {
        let admin = "photo-admin-token-0123456789abcdef"
        let fixture = try ServeFixture(python: nil, environment: ["PASSMINT_ADMIN_TOKEN": admin])
        let tmp = fixture.tmp
        try FileManager.default.createDirectory(atPath: tmp.path("photos"), withIntermediateDirectories: true)
        try CLI.check("convert", ["-size", "500x400", "plasma:", "-quality", "85", tmp.path("photos/ada.jpg")])
        let generated = try CLI.passmint(
            [
                "generate", "--template", Self.status, "--db", fixture.db, "--web-service-url", fixture.base + "/",
                "--serial", "PH1", "--set", "image.thumbnail=ada.jpg", "--images", tmp.path("photos"), "--out",
                tmp.path("PH1.pkpass"),
            ] + DevIdentity.signingArgs)
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(try fixture.count("pass_images", where: "serial = 'PH1'") == 3)
        let token = try #require(try ServeTools.passJSON(tmp.path("PH1.pkpass"))["authenticationToken"] as? String)
        let original = try #require(try PhotoEntries.inspect([tmp.path("PH1.pkpass")]).first)
        try FileManager.default.removeItem(atPath: tmp.path("photos/ada.jpg"))

        let changed = try fixture.update("PH1", ["tier=Gold"])
        #expect(changed.status == 0, "\(changed.stderr)")
        let served = try fixture.download(serial: "PH1", token: token)
        #expect(served.status == 200)
        try served.body.write(to: URL(fileURLWithPath: tmp.path("served.pkpass")))
        let rerendered = try #require(try PhotoEntries.inspect([tmp.path("served.pkpass")]).first)
        #expect(Self.sizes(rerendered) == PhotoEntries.thumbnailSizes)
        #expect(rerendered["sha1"] as? [String: String] == original["sha1"] as? [String: String])
        // The status template's Gold colour.
        #expect(try ServeTools.passJSON(tmp.path("served.pkpass"))["backgroundColor"] as? String == "rgb(122, 90, 20)")
        #expect(try ServeTools.opensslVerifies(tmp.path("served.pkpass"), tmp: tmp))

        try CLI.check("convert", ["-size", "300x300", "xc:teal", tmp.path("photos/new.png")])
        let replaced = try CLI.passmint(
            ["update", "PH1", "--db", fixture.db, "--set", "image.thumbnail=new.png", "--images", tmp.path("photos")]
                + DevIdentity.signingArgs)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        let again = try fixture.download(serial: "PH1", token: token)
        #expect(again.status == 200)
        try again.body.write(to: URL(fileURLWithPath: tmp.path("again.pkpass")))
        let updated = try #require(try PhotoEntries.inspect([tmp.path("again.pkpass")]).first)
        #expect(Self.sizes(updated) == PhotoEntries.thumbnailSizes)
        let before = original["sha1"] as? [String: String] ?? [:], after = updated["sha1"] as? [String: String] ?? [:]
        #expect(PhotoEntries.thumbnailSizes.keys.allSatisfy { before[$0] != after[$0] })

        // A new photo must be inside the image folder too.
        let outside = try CLI.passmint(
            [
                "update", "PH1", "--db", fixture.db, "--set", "image.thumbnail=../PH1.pkpass", "--images",
                tmp.path("photos"),
            ]
                + DevIdentity.signingArgs)
        #expect(outside.status == 1)
        #expect(outside.stderr.contains("outside"))

        // Over HTTP, a change may not make the service read a file of the caller's choosing.
        let patched = try fixture.http(
            "PATCH", "/admin/v1/passes/PH1", headers: ["Authorization": "Bearer \(admin)"],
            body: #"{"image.thumbnail":"/etc/passwd"}"#)
        #expect(patched.status == 400, "\(patched.text)")
        #expect(patched.text.contains("image"))
    }
}
