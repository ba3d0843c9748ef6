import Foundation
import PassArchive
import PassModel
import Testing

@testable import PassMint

/// Apple's validator's rules as `verify` reports them on signed archives, and the catalogue `verify --help` prints.
@Suite("verify: Apple's validator rules")
struct VerifyAppleRulesTests {
    typealias Support = VerifyTestSupport

    private func verify(_ files: [ArchiveEntry]) throws -> VerificationReport {
        PassVerifier.verify(archive: try Support.makePass(files), name: "test.pkpass")
    }

    private func without(_ names: Set<String>, _ files: [ArchiveEntry] = Support.goodFiles()) -> [ArchiveEntry] {
        files.filter { !names.contains($0.name) }
    }

    /// A poster event ticket for the test identity with everything pass.json needs; `nfc` as given.
    static func posterTicket(nfc: String?) -> [UInt8] {
        Array(
            """
            {"formatVersion": 1, "passTypeIdentifier": "\(Support.passTypeIdentifier)", "serialNumber": "SERIAL-0002",
             "teamIdentifier": "\(Support.teamIdentifier)", "organizationName": "PassMint Tests",
             "description": "Test ticket", "preferredStyleSchemes": ["posterEventTicket", "eventTicket"],
             \(nfc.map { "\"nfc\": \($0)," } ?? "")
             "semantics": {"eventName": "Gig", "venueName": "Hall", "venueRegionName": "Berlin", "venueRoom": "Main",
                           "eventStartDate": "2027-06-12T19:30:00+02:00", "seats": [{"seatNumber": "1"}]},
             "eventTicket": {"primaryFields": [{"key": "event", "label": "EVENT", "value": "Gig"}]}}
            """.utf8)
    }

    @Test("icon without @3x (or @2x): one image.missing-scale warning at the missing file; the pass stays valid")
    func iconScales() throws {
        let no3x = try verify(without(["icon@3x.png"]))
        #expect(no3x.valid)
        let scale = no3x.problems.filter { $0.code == VerifyCode.imageMissingScale }
        #expect(scale.map(\.path) == ["icon@3x.png"] && scale.allSatisfy { $0.severity == .warning }, "\(scale)")
        #expect(scale.first?.message.contains("87×87") == true)
        let only1x = try verify(without(["icon@2x.png", "icon@3x.png"]))
        #expect(
            only1x.problems.filter { $0.code == VerifyCode.imageMissingScale }.map(\.path) == [
                "icon@2x.png", "icon@3x.png",
            ])
        #expect(try !verify(Support.goodFiles()).codes.contains(VerifyCode.imageMissingScale))
    }

    @Test("no icon at all: image.missing-icon, an error as in Apple's validator, and no scale warning")
    func noIcon() throws {
        let report = try verify(without(["icon.png", "icon@2x.png", "icon@3x.png"]))
        #expect(!report.valid)
        #expect(report.errors.map(\.code) == [VerifyCode.imageMissingIcon])
        #expect(!report.codes.contains(VerifyCode.imageMissingScale))
    }

    @Test("a poster event ticket without NFC or art: warnings that say Apple refuses to sign; background.png is art")
    func posterTicket() throws {
        let json = Self.posterTicket(nfc: nil)
        let bare = try verify(without(["pass.json"]) + [ArchiveEntry(name: "pass.json", bytes: json)])
        #expect(bare.valid, "\(bare.problems)")
        let apple = bare.problems.filter {
            $0.code == PassProblemCode.posterNFC || $0.code == VerifyCode.imageMissingPosterArt
        }
        #expect(apple.map(\.path).sorted() == ["artwork.png", "nfc"])
        #expect(apple.allSatisfy { $0.severity == .warning && $0.message.contains("Apple's validator refuses") })
        let withArt = try verify(
            without(["pass.json"]) + [
                ArchiveEntry(name: "pass.json", bytes: json),
                ArchiveEntry(name: "background.png", bytes: Support.png(180, 220)),
            ])
        #expect(!withArt.codes.contains(VerifyCode.imageMissingPosterArt), "\(withArt.problems)")
    }

    @Test("a poster ticket's nfc without requiresAuthentication is a warning; without an NFC certificate, an error")
    func posterNFCAuthentication() throws {
        let json = Self.posterTicket(nfc: "{\"message\": \"T-1\", \"encryptionPublicKey\": \"QUJD\"}")
        let report = try verify(
            without(["pass.json"]) + [
                ArchiveEntry(name: "pass.json", bytes: json),
                ArchiveEntry(name: "artwork.png", bytes: Support.png(358, 448)),
            ])
        #expect(report.warnings.map(\.code).contains(PassProblemCode.posterNFCAuthentication))
        #expect(!report.codes.contains(PassProblemCode.posterNFC))
        // The dev certificate has no NFC: Wallet refuses the pass, which is verify's own rule.
        #expect(report.errors.map(\.code) == [VerifyCode.certificateNFCRequired])
    }

    /// Every code literal in the files that define codes.
    static func definedCodes() throws -> Set<String> {
        let files = [
            "Sources/PassMint/Verify/VerifyCode.swift", "Sources/PassModel/Validation/PassProblemCode.swift",
            "Sources/PassModel/Validation/PassValidator+Document.swift",
        ]
        var codes: Set<String> = []
        let pattern = try NSRegularExpression(
            pattern: "static let \\w+(?:: ProblemCode)? = \"([a-z]+\\.[a-z0-9-]+)\"")
        for file in files {
            let text = try String(contentsOf: PackagePaths.root.appendingPathComponent(file), encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                codes.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        return codes
    }

    @Test("the catalogue verify --help prints has every code defined in the sources, once")
    func catalogue() throws {
        let defined = try Self.definedCodes()
        #expect(defined.count > 50, "\(defined)")
        let listed = ProblemCatalog.entries.map(\.code.rawValue)
        #expect(Set(listed).count == listed.count, "a code is listed twice")
        #expect(
            Set(listed) == defined,
            "missing: \(defined.subtracting(listed)), extra: \(Set(listed).subtracting(defined))")
        for rule in AppleValidatorRules.all {
            #expect(ProblemCatalog.entries.first { $0.code == rule.code }?.isAppleRule == true, "\(rule.code)")
        }
        let text = ProblemCatalog.text()
        #expect(text.split(separator: "\n").count == listed.count)
        #expect(text.contains("pass.poster-nfc") && text.contains("A  a poster event ticket without nfc"))
    }
}
