import PassArchive
import PassModel
import Testing

@testable import PassMint

/// iOS 27 poster generic passes through the whole of verify: style, fallback and the artwork and primaryLogo slots.
@Suite("verify: poster generic passes")
struct VerifyPosterGenericTests {
    typealias Support = VerifyTestSupport

    /// A poster generic pass.json; `fallback` is the legacy style beside it (nil for none). Both share keys.
    static func passJSON(fallback: String? = "generic") -> [UInt8] {
        let fields =
            #"{"primaryFields": [{"key": "member", "value": "Ada"}], "#
            + #""backFields": [{"key": "terms", "value": "T"}]"#
        let poster = #""posterGeneric": \#(fields), "footerFields": [{"key": "points", "value": 12}]}"#
        let legacy = fallback.map { #", "\#($0)": \#(fields)}"# } ?? ""
        return Array(
            """
            {"formatVersion": 1, "passTypeIdentifier": "\(Support.passTypeIdentifier)", "serialNumber": "SERIAL-0001",
             "teamIdentifier": "\(Support.teamIdentifier)", "organizationName": "PassMint Tests",
             "description": "Poster test pass", \(poster)\(legacy)}
            """.utf8)
    }

    /// Icon, logo, artwork and primaryLogo at every scale, each the size Apple gives.
    static func files(
        fallback: String? = "generic", replacing: [String: [UInt8]] = [:],
        removing: Set<String> = []
    ) -> [ArchiveEntry] {
        var images: [(String, [UInt8])] = [
            ("icon.png", Support.png(29, 29)), ("icon@2x.png", Support.png(58, 58)),
            ("icon@3x.png", Support.png(87, 87)),
            ("logo@2x.png", Support.png(200, 100)),
            ("artwork.png", Support.png(358, 448)), ("artwork@2x.png", Support.png(716, 896)),
            ("artwork@3x.png", Support.png(1074, 1344)),
            ("primaryLogo.png", Support.png(100, 30)), ("primaryLogo@2x.png", Support.png(200, 60)),
            ("primaryLogo@3x.png", Support.png(300, 90)),
        ]
        images = images.filter { !removing.contains($0.0) }.map { ($0.0, replacing[$0.0] ?? $0.1) }
        for (name, bytes) in replacing where !images.contains(where: { $0.0 == name }) { images.append((name, bytes)) }
        return [ArchiveEntry(name: "pass.json", bytes: passJSON(fallback: fallback))]
            + images.map { ArchiveEntry(name: $0.0, bytes: $0.1) }
    }

    private func verify(_ files: [ArchiveEntry]) throws -> VerificationReport {
        PassVerifier.verify(archive: try Support.makePass(files), name: "poster.pkpass")
    }

    @Test("a poster generic pass with a generic fallback sharing keys verifies with no spurious problem")
    func clean() throws {
        let report = try verify(Self.files())
        #expect(report.valid, "\(report.problems)")
        #expect(report.codes == ["certificate.not-apple"], "\(report.problems)")
        #expect(report.style == "posterGeneric")
        #expect(report.fallbackStyle == "generic")
        #expect(report.jsonValue["style"] == "posterGeneric")
    }

    @Test(
        "artwork (358×448 pt) and primaryLogo (30 pt tall, 30-126 pt wide) sizes follow ImageSlot at each scale",
        arguments: [
            ("artwork@2x.png", 700, 900, "716×896"), ("artwork@3x.png", 1074, 1000, "1074×1344"),
            ("artwork.png", 448, 358, "358×448"), ("primaryLogo@2x.png", 200, 70, "60 px tall"),
            ("primaryLogo@3x.png", 400, 90, "90-378 px wide"), ("primaryLogo.png", 20, 30, "30-126 px wide"),
        ])
    func imageSize(name: String, width: Int, height: Int, expected: String) throws {
        let report = try verify(Self.files(replacing: [name: Support.png(width, height)]))
        let hits = report.problems.filter { $0.code == VerifyCode.imageWrongSize }
        #expect(hits.map(\.path) == [name], "\(report.problems)")
        #expect(hits.first?.message.contains(expected) == true, "\(hits)")
        #expect(report.valid, "a wrong size is a warning: \(report.problems)")
    }

    @Test("artwork without @3x is image.missing-scale, naming the file and its pixels")
    func missingScale() throws {
        let report = try verify(Self.files(removing: ["artwork@3x.png", "primaryLogo@2x.png"]))
        let hits = report.problems.filter { $0.code == VerifyCode.imageMissingScale }
        #expect(hits.map(\.path).sorted() == ["artwork.png", "primaryLogo.png"], "\(report.problems)")
        #expect(hits.contains { $0.message.contains("artwork@3x.png (1074×1344 px)") })
        #expect(hits.contains { $0.message.contains("primaryLogo@2x.png (60 px tall, 60-252 px wide)") })
        #expect(hits.allSatisfy { $0.severity == .warning })
    }

    @Test("background.png on a poster generic pass is unconfirmed, not 'not shown'")
    func background() throws {
        let report = try verify(Self.files(replacing: ["background@2x.png": Support.png(360, 440)]))
        let hit = try #require(report.problems.first { $0.code == VerifyCode.imageUnconfirmedSlot })
        #expect(hit.path == "background@2x.png")
        #expect(hit.message.contains("unconfirmed") && hit.message.contains("artwork.png"))
        #expect(!report.codes.contains(VerifyCode.imageNotShown), "\(report.problems)")
    }

    @Test("a strip is checked against the fallback that shows it, and 'not shown' names both styles")
    func stripOnFallback() throws {
        let storeCard = try verify(
            Self.files(fallback: "storeCard", replacing: ["strip@2x.png": Support.png(750, 246)]))
        #expect(storeCard.codes == ["certificate.not-apple"], "\(storeCard.problems)")
        #expect(storeCard.fallbackStyle == "storeCard")
        let wrong = try verify(Self.files(fallback: "storeCard", replacing: ["strip@2x.png": Support.png(750, 100)]))
        #expect(wrong.problems.filter { $0.code == VerifyCode.imageWrongSize }.map(\.path) == ["strip@2x.png"])
        let generic = try verify(Self.files(replacing: ["strip@2x.png": Support.png(750, 246)]))
        let notShown = try #require(generic.problems.first { $0.code == VerifyCode.imageNotShown })
        #expect(notShown.message.contains("posterGeneric passes or their generic fallback"), "\(notShown)")
    }

    @Test("artwork on an ordinary generic pass is still 'not shown'")
    func artworkOnGeneric() throws {
        let files = Support.goodFiles() + [ArchiveEntry(name: "artwork@2x.png", bytes: Support.png(716, 896))]
        let report = PassVerifier.verify(archive: try Support.makePass(files), name: "generic.pkpass")
        let hit = try #require(report.problems.first { $0.code == VerifyCode.imageNotShown })
        #expect(hit.message.contains("not shown on generic passes (only on posterGeneric)"), "\(hit)")
        #expect(report.style == "generic" && report.fallbackStyle == nil)
    }

    @Test("posterGeneric alone: style posterGeneric, valid, warned that older iPhones cannot add it")
    func noFallback() throws {
        let report = try verify(Self.files(fallback: nil))
        #expect(report.valid, "\(report.problems)")
        #expect(report.style == "posterGeneric" && report.fallbackStyle == nil)
        #expect(report.codes.contains(PassProblemCode.posterNoFallback))
    }
}
