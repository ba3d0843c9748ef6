import Foundation
import PassArchive
import PassMintTestSupport
import PassTemplates
import Testing

@testable import PassMint
@testable import PassPreview

/// Template images and a pass's images get the member photos' header checks (issue 20, item 8): a template whose
/// `icon.png` is a decompression bomb does not load for issuing, and `verify` reports such an image as an error.
@Suite("Template and pass images: the member photos' limits")
struct TemplateImagesTests {
    typealias S = PreviewTestSupport

    /// A copy of the shipped loyalty template in `dir/NAME` with `replace` written over some of its files.
    static func template(in dir: String, name: String = "loyalty", replace: [String: [UInt8]]) throws -> String {
        let target = dir + "/" + name
        try FileManager.default.copyItem(atPath: PackagePaths.template("loyalty"), toPath: target)
        for (path, bytes) in replace {
            try Data(bytes).write(to: URL(fileURLWithPath: target + "/" + path))
        }
        return target
    }

    /// A PNG declaring `width`×`height` with valid CRCs, padded with a text chunk to `size` bytes.
    static func png(_ width: Int, _ height: Int, size: Int) -> [UInt8] {
        let bomb = TestPhotos.pngBomb(width: width, height: height)
        let iend = Array(bomb.suffix(12))
        let padding = max(0, size - bomb.count - 12)
        let text = Array("Comment".utf8) + [0] + [UInt8](repeating: UInt8(ascii: "x"), count: max(0, padding - 8))
        func be32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
        let body = Array("tEXt".utf8) + text
        return Array(bomb.dropLast(12)) + be32(text.count) + body + be32(Int(TestPhotos.crc32(body))) + iend
    }

    @Test(
        "a 467-byte icon.png claiming 100,000 × 100,000 px refuses the template, naming the file",
        arguments: ["icon.png", "icon@2x.png", "strip@3x.png", "de.lproj/logo.png"])
    func bombRefusesTemplate(file: String) throws {
        let bomb = Self.png(100_000, 100_000, size: 467)
        #expect(bomb.count == 467)
        try withTemporaryDirectory { dir in
            let template = try Self.template(in: dir, replace: [file: bomb])
            do throws(PassMintError) {
                _ = try PassFactory.loadTemplate(template)
                Issue.record("the template loaded")
            } catch {
                guard case .photo(.decompressionBomb(let named, 100_000, 100_000, 467)) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(named == "\(template)/\(file)")
                #expect(error.description.contains("\(template)/\(file)"), "\(error)")
                #expect(error.description.contains("100000×100000") && error.description.contains("decompression bomb"))
                #expect(error.isInvalidInput)
            }
        }
    }

    @Test("an image over 40 megapixels that is no bomb is refused as too large; a tier image is checked too")
    func tooManyPixels() throws {
        // 8000 × 6000 in 60 KB: more than the pixel limit, fewer than 1,000 pixels per byte.
        let big = Self.png(8_000, 6_000, size: 60_000)
        try withTemporaryDirectory { dir in
            let template = dir + "/tiered"
            try FileManager.default.createDirectory(atPath: template + "/tiers", withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: PackagePaths.template("loyalty") + "/icon.png", toPath: template + "/icon.png")
            try Data(big).write(to: URL(fileURLWithPath: template + "/tiers/gold-strip.png"))
            try Data(
                """
                {"formatVersion": 1, "passTypeIdentifier": "pass.test.tiers", "teamIdentifier": "T",
                 "serialNumber": "{{serialNumber}}", "organizationName": "O", "description": "tiers",
                 "storeCard": {"primaryFields": [{"key": "tier", "value": "{{tier}}"}]}}
                """.utf8
            ).write(to: URL(fileURLWithPath: template + "/pass.json"))
            try Data(
                """
                {"fields": [{"name": "tier", "type": "enum", "values": ["Silver", "Gold"], "default": "Silver"}],
                 "tiers": {"field": "tier", "values": {"Gold": {"images": {"strip.png": "tiers/gold-strip.png"}}}}}
                """.utf8
            ).write(to: URL(fileURLWithPath: template + "/template.json"))
            do throws(PassMintError) {
                _ = try PassFactory.loadTemplate(template)
                Issue.record("the template loaded")
            } catch {
                guard case .photo(.tooManyPixels(let file, 8_000, 6_000, _)) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(file == "\(template)/tiers/gold-strip.png")
            }
        }
    }

    @Test("a zipped template with a bomb is refused too; every shipped template loads")
    func zippedAndShipped() throws {
        let source = try PassFactory.templateSource(PackagePaths.template("loyalty"))
        var files = source.files
        files["icon.png"] = Self.png(100_000, 100_000, size: 467)
        do throws(PassMintError) {
            _ = try PassFactory.loadTemplate(TemplateSource(name: "zipped.pkpasstemplate", files: files))
            Issue.record("the template loaded")
        } catch {
            guard case .photo(.decompressionBomb(let named, _, _, _)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(named == "zipped.pkpasstemplate/icon.png")
        }
        for name in ["loyalty", "status", "event", "designer-club.pkpasstemplate"] {
            _ = try PassFactory.loadTemplate(PackagePaths.template(name))
        }
    }

    @Test("verify: a bomb in a pass is image.bomb, a 60-megapixel image image.too-large, both errors naming the file")
    func verifyReportsImages() throws {
        var files = VerifyTestSupport.goodFiles()
        files[1] = ArchiveEntry(name: "icon.png", bytes: Self.png(100_000, 100_000, size: 467))
        files.append(ArchiveEntry(name: "thumbnail.png", bytes: Self.png(10_000, 6_000, size: 70_000)))
        let report = PassVerifier.verify(archive: try VerifyTestSupport.makePass(files), name: "bomb.pkpass")
        #expect(!report.valid)
        let bomb = try #require(report.problems.first { $0.code == "image.bomb" })
        #expect(bomb.severity == .error && bomb.path == "icon.png" && bomb.message.contains("icon.png"))
        let large = try #require(report.problems.first { $0.code == "image.too-large" })
        #expect(large.severity == .error && large.path == "thumbnail.png")
        // The good pass has neither.
        let good = PassVerifier.verify(
            archive: try VerifyTestSupport.makePass(VerifyTestSupport.goodFiles()), name: "ok")
        #expect(!good.problems.contains { $0.code == "image.bomb" || $0.code == "image.too-large" })
    }

    @Test("preview and lint of a .pkpass with a bomb refuse it before any image reaches the page")
    func previewRefusesBomb() throws {
        var files = VerifyTestSupport.goodFiles()
        files[1] = ArchiveEntry(name: "icon.png", bytes: Self.png(100_000, 100_000, size: 467))
        let bytes = try VerifyTestSupport.makePass(files)
        #expect(throws: PreviewError.self) { try PreviewSource.archive(bytes, name: "bomb.pkpass") }
    }
}
