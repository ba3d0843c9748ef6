import Foundation
import Testing

/// Template images get the member photos' header checks (issue 20, item 8), end to end: a template whose icon.png
/// declares 100,000 × 100,000 pixels in a few bytes is refused by `generate`, `batch` and `templates publish` (exit
/// 1, the file named, nothing written), and `verify` reports such an image in a signed pass as `image.bomb`.
@Suite("template images: photo limits in generate, batch, templates publish and verify (end to end)", .serialized)
struct TemplateImageLimitsTests {
    /// A copy of the shipped loyalty template in `tmp/NAME`.
    static func loyalty(_ tmp: TempDir, _ name: String) throws -> String {
        let path = tmp.path(name)
        try FileManager.default.copyItem(
            atPath: PackagePaths.template("loyalty"), toPath: path)
        return path
    }

    @Test("generate and batch refuse the template with exit 1, naming the file, and write no pass")
    func generateAndBatch() throws {
        let tmp = try TempDir()
        let template = try Self.loyalty(tmp, "bomb")
        try TestPhotos.writePNGBomb(template + "/icon.png")
        let generate = try CLI.passmint(
            ["generate", "--template", template, "--out", tmp.path("x.pkpass")] + DevIdentity.signingArgs)
        #expect(generate.status == 1, "\(generate.stderr)")
        #expect(generate.stderr.contains("\(template)/icon.png") && generate.stderr.contains("decompression bomb"))
        #expect(!FileManager.default.fileExists(atPath: tmp.path("x.pkpass")))
        try "memberName\nAda\nGrace\n".write(toFile: tmp.path("m.csv"), atomically: true, encoding: .utf8)
        let batch = try CLI.passmint(
            ["batch", "--template", template, "--csv", tmp.path("m.csv"), "--out", tmp.path("out")]
                + DevIdentity.signingArgs)
        #expect(batch.status == 1, "\(batch.stderr)")
        #expect(batch.stderr.contains("\(template)/icon.png") && batch.stderr.contains("100000×100000"))
        let written = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path("out"))) ?? []
        #expect(!written.contains { $0.hasSuffix(".pkpass") })
    }

    @Test("templates publish refuses a folder with a bomb before storing or moving anything")
    func publish() throws {
        let tmp = try TempDir()
        let template = try Self.loyalty(tmp, "beans")
        try "serialNumber\nB-1\nB-2\n".write(toFile: tmp.path("m.csv"), atomically: true, encoding: .utf8)
        let db = tmp.path("store.db")
        let batch = try CLI.passmint(
            [
                "batch", "--template", template, "--csv", tmp.path("m.csv"), "--out", tmp.path("out"), "--db", db,
                "--web-service-url", "https://passes.example/",
            ] + DevIdentity.signingArgs)
        try #require(batch.status == 0, "\(batch.stderr)")
        let before = try CLI.run(
            "sqlite3", [db, "select count(*) from template_versions; select template from passes"]
        ).stdout
        try TestPhotos.writePNGBomb(template + "/icon.png")
        let publish = try CLI.passmint(
            ["templates", "publish", "beans", template, "--db", db] + DevIdentity.signingArgs)
        #expect(publish.status == 1, "\(publish.stderr)")
        #expect(publish.stderr.contains("\(template)/icon.png") && publish.stderr.contains("decompression bomb"))
        let after = try CLI.run("sqlite3", [db, "select count(*) from template_versions; select template from passes"])
            .stdout
        #expect(before == after)
    }

    @Test("verify: a signed pass whose icon.png is a bomb is invalid with image.bomb at icon.png")
    func verify() throws {
        let tmp = try TempDir()
        let good = tmp.path("good.pkpass")
        let generate = try CLI.passmint(
            ["generate", "--template", PackagePaths.template("loyalty"), "--out", good]
                + DevIdentity.signingArgs)
        try #require(generate.status == 0, "\(generate.stderr)")
        try TestPhotos.writePNGBomb(tmp.path("bomb.png"))
        // Re-packed and re-signed with Python's zipfile and openssl: only the icon differs from a good pass.
        let repack = try CLI.run(
            "python3",
            [
                "-c",
                """
                import hashlib, json, subprocess, sys, zipfile
                good, bomb, out, cert, key, wwdr, work = sys.argv[1:8]
                files = {n: zipfile.ZipFile(good).read(n) for n in zipfile.ZipFile(good).namelist()}
                files['icon.png'] = open(bomb, 'rb').read()
                manifest = {n: hashlib.sha1(b).hexdigest() for n, b in files.items() if n not in ('manifest.json', 'signature')}
                files['manifest.json'] = json.dumps(manifest, sort_keys=True).encode()
                open(work + '/manifest.json', 'wb').write(files['manifest.json'])
                subprocess.run(['openssl', 'smime', '-sign', '-binary', '-md', 'sha256', '-in', work + '/manifest.json',
                                '-signer', cert, '-inkey', key, '-certfile', wwdr, '-outform', 'DER',
                                '-out', work + '/signature'], check=True)
                files['signature'] = open(work + '/signature', 'rb').read()
                with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
                    for n, b in files.items(): z.writestr(n, b)
                """,
                good, tmp.path("bomb.png"), tmp.path("bomb.pkpass"), DevIdentity.directory + "/pass-cert.pem",
                DevIdentity.directory + "/pass-key.pem", DevIdentity.directory + "/wwdr.pem", tmp.path,
            ])
        try #require(repack.status == 0, "\(repack.stderr)")
        let result = try CLI.passmint(
            ["verify", "--json", "--trust-root", DevIdentity.directory + "/root-ca.pem", tmp.path("bomb.pkpass")])
        #expect(result.status == 1, "\(result.stdout)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let problems = report["problems"] as? [[String: Any]] ?? []
        let bomb = try #require(problems.first { $0["code"] as? String == "image.bomb" }, "\(problems)")
        #expect(bomb["severity"] as? String == "error" && bomb["path"] as? String == "icon.png")
        // The rest of the pass is sound: the signature and manifest checks pass.
        #expect(!problems.contains { ($0["code"] as? String ?? "").hasPrefix("signature.") })
        #expect(!problems.contains { ($0["code"] as? String ?? "").hasPrefix("manifest.") })
    }
}
