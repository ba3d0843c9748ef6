import Testing

@testable import PassMint
import PassModel

@Suite("verify: building blocks")
struct VerifyUnitTests {
    @Test("ImageInfo.pngSize reads IHDR; other formats are named")
    func pngSize() {
        let png = VerifyTestSupport.png(58, 29)
        #expect(ImageInfo.pngSize(png)?.width == 58)
        #expect(ImageInfo.pngSize(png)?.height == 29)
        #expect(ImageInfo.pngSize(Array(png.prefix(20))) == nil)  // cut inside IHDR
        var badChunk = png
        badChunk[12] = UInt8(ascii: "X")  // first chunk is not IHDR
        #expect(ImageInfo.pngSize(badChunk) == nil)
        #expect(ImageInfo.formatName(badChunk) == "a damaged PNG")
        #expect(ImageInfo.formatName([0xFF, 0xD8, 0xFF, 0xE0, 0, 0]) == "JPEG")
        #expect(ImageInfo.formatName(Array("GIF89a".utf8)) == "GIF")
        #expect(ImageInfo.formatName([]) == "empty")
        #expect(ImageInfo.formatName(png) == "PNG")
    }

    @Test("image names: folder, base and scale")
    func imageNames() throws {
        let localized = try #require(ImageName("en.lproj/logo@2x.png"))
        #expect(localized.folder == "en.lproj")
        #expect(localized.base == "logo")
        #expect(localized.scale == 2)
        #expect(ImageName("strip@3x.png")?.scale == 3)
        #expect(ImageName("icon.png")?.scale == 1)
        #expect(ImageName("images/icon.png") == nil)
        #expect(ImageName("pass.json") == nil)
    }

    @Test("image rules: exact, maximum, thumbnail aspect, strip height per style")
    func imageRules() throws {
        let icon = try #require(ImageSlot.rule(for: "icon", style: "generic", isPoster: false))
        #expect(icon.sizeProblem(width: 87, height: 87, scale: 3) == nil)
        #expect(icon.sizeProblem(width: 58, height: 58, scale: 3) != nil)
        let logo = try #require(ImageSlot.rule(for: "logo", style: "generic", isPoster: false))
        #expect(logo.sizeProblem(width: 100, height: 50, scale: 1) == nil)
        #expect(logo.sizeProblem(width: 161, height: 50, scale: 1) != nil)
        let event = try #require(ImageSlot.rule(for: "strip", style: "eventTicket", isPoster: false))
        #expect(event.sizeProblem(width: 750, height: 196, scale: 2) == nil)
        #expect(event.sizeProblem(width: 750, height: 246, scale: 2) != nil)
        let coupon = try #require(ImageSlot.rule(for: "strip", style: "coupon", isPoster: false))
        #expect(coupon.sizeProblem(width: 1125, height: 432, scale: 3) == nil)
        let thumbnail = try #require(ImageSlot.rule(for: "thumbnail", style: "generic", isPoster: false))
        #expect(thumbnail.sizeProblem(width: 60, height: 90, scale: 1) == nil)
        #expect(thumbnail.sizeProblem(width: 40, height: 90, scale: 1) != nil)  // narrower than 2:3
        #expect(ImageSlot.rule(for: "background", style: "eventTicket", isPoster: true) == nil)
        #expect(ImageSlot.rule(for: "artwork", style: "eventTicket", isPoster: true) == nil)
    }

    @Test(
        "language IDs of .lproj folders",
        arguments: [
            ("en", true), ("fr-CA", true), ("zh-Hans", true), ("pt_BR", true), ("es-419", true), ("Base", true),
            ("zh-Hant-TW", true), ("", false), ("e", false), ("english", false), ("en-", false), ("12", false),
            ("en.US", false),
        ])
    func languageID(_ name: String, isLanguageID: Bool) {
        #expect(LocalizationChecks.isLanguageID(name) == isLanguageID)
    }

    @Test("archive path rules")
    func badPaths() {
        #expect(ArchiveChecks.badPathReason("pass.json") == nil)
        #expect(ArchiveChecks.badPathReason("en.lproj/pass.strings") == nil)
        #expect(ArchiveChecks.badPathReason("en.lproj\\pass.strings") != nil)
        #expect(ArchiveChecks.badPathReason("/pass.json") != nil)
        #expect(ArchiveChecks.badPathReason("../pass.json") != nil)
        #expect(ArchiveChecks.badPathReason("a//b") != nil)
    }

    @Test("report: errors sorted before warnings, valid means no error")
    func reportOrdering() {
        let report = VerificationReport(
            file: "x",
            problems: [
                .init(.warning, "image.wrong-size", "w", path: "icon.png"),
                .init(.error, "signature.missing", "e", path: "signature"),
            ])
        #expect(report.codes == ["signature.missing", "image.wrong-size"])
        #expect(!report.valid)
        #expect(VerificationReport(file: "y", problems: [.init(.warning, "a.b", "w", path: "")]).valid)
        #expect(report.jsonValue["style"] == .null)
    }
}
