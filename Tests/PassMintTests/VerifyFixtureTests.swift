import Foundation
import Testing

@testable import PassMint

/// The real passes in ../shared/fixtures/pkpass (skipped with a message when the folder is absent).
@Suite("verify: real passes", .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
struct VerifyFixtureTests {
    private func report(_ name: String) throws -> [VerificationReport] {
        let path = try #require(
            PackagePaths.fixture("pkpass/\(name)"), "fixture \(name) is missing from ../shared/fixtures/pkpass")
        let reports = PassVerifier.verify(file: path)
        for report in reports { print(VerifyTestDump.text(report)) }
        return reports
    }

    @Test(
        "Apple samples: valid signature and manifest, expired certificates",
        arguments: [
            "apple-sample__StoreCard.pkpass", "apple-sample__Event.pkpass",
        ])
    func appleSamples(name: String) throws {
        let reports = try report(name)
        let report = try #require(reports.first)
        #expect(reports.count == 1)
        #expect(!report.codes.contains { $0.rawValue.hasPrefix("manifest.") || $0.rawValue.hasPrefix("signature.") })
        #expect(report.codes.contains("certificate.expired"))
        #expect(report.codes.contains("certificate.intermediate-expired"))
        #expect(!report.codes.contains("certificate.not-apple"))
        #expect(!report.codes.contains("certificate.wrong-intermediate"))
        #expect(report.notes.contains { $0.hasPrefix("signature was valid when made") })
        #expect(report.passTypeIdentifier == "pass.com.apple.devpubs.example")
        #expect(!report.valid)
    }

    @Test("generic_with_invalid_checksum: manifest.hash-mismatch")
    func invalidChecksum() throws {
        let reports = try report("ueman__generic_with_invalid_checksum.pkpass")
        let report = try #require(reports.first)
        #expect(report.codes.contains("manifest.hash-mismatch"))
        #expect(!report.valid)
    }

    @Test("boarding_pass_ui: G4 leaf bundled with G1 is certificate.wrong-intermediate")
    func wrongIntermediate() throws {
        let reports = try report("ueman__boarding_pass_ui.pkpass")
        let report = try #require(reports.first)
        #expect(report.codes.contains("certificate.wrong-intermediate"))
        #expect(!report.codes.contains("certificate.not-apple"))
        #expect(report.style == "boardingPass")
    }

    @Test("lufthansa bundle: two reports, each signature.missing")
    func lufthansaBundle() throws {
        let reports = try report("kitinerary__lufthansa.pkpasses")
        #expect(reports.count == 2)
        for report in reports {
            #expect(report.file.contains("kitinerary__lufthansa.pkpasses:"))
            #expect(report.codes.contains("signature.missing"))
            #expect(!report.valid)
        }
    }

    @Test("JSON shape of a report")
    func jsonShape() throws {
        let reports = try report("apple-sample__StoreCard.pkpass")
        let object = try #require(reports.first?.jsonValue.objectValue)
        #expect(Set(object.keys) == ["file", "valid", "style", "passTypeIdentifier", "serialNumber", "problems"])
        #expect(object["valid"] == .bool(false))
        #expect(object["style"] == .string("storeCard"))
        let first = try #require(object["problems"]?.arrayValue?.first?.objectValue)
        #expect(Set(first.keys) == ["severity", "code", "message", "path"])
    }
}

/// A plain-text dump of a report for test logs.
enum VerifyTestDump {
    static func text(_ report: VerificationReport) -> String {
        var lines = ["\(report.file): \(report.valid ? "valid" : "INVALID") style=\(report.style ?? "-")"]
        lines += report.problems.map { "  \($0)" }
        lines += report.notes.map { "  note: \($0)" }
        return lines.joined(separator: "\n")
    }
}
