import Foundation
import PassArchive
import PassSigning
import Testing

@testable import PassMint

/// Passes built in the test with PassArchive and signed with a dev identity, each broken in one way.
@Suite("verify: crafted passes")
struct VerifyArchiveTests {
    typealias Support = VerifyTestSupport

    private func verify(_ bytes: [UInt8], now: Date = Date()) -> VerificationReport {
        PassVerifier.verify(archive: bytes, name: "test.pkpass", now: now)
    }

    @Test("a good dev-signed pass is valid, named a development pass, warned not-apple")
    func goodDevPass() throws {
        let report = verify(try Support.makePass(Support.goodFiles()))
        #expect(report.valid, "\(report.problems)")
        #expect(report.isDevelopmentPass)
        #expect(report.codes == ["certificate.not-apple"])
        #expect(report.warnings.first?.severity == .warning)
        #expect(report.style == "generic")
        #expect(report.serialNumber == "SERIAL-0001")
        #expect(report.notes.contains { $0.hasPrefix("development pass") })
        #expect(report.notes.contains { $0.hasPrefix("signer certificate valid until") })
        #expect(!report.notes.contains { $0.hasPrefix("signature was valid when made") })
    }

    @Test("junk files: .DS_Store and __MACOSX are archive.junk-file")
    func junkFiles() throws {
        let dsStore = verify(
            try Support.makePass(
                Support.goodFiles(), extraEntries: [ArchiveEntry(name: ".DS_Store", bytes: [0, 0, 0, 1])]))
        #expect(dsStore.codes.contains("archive.junk-file"))
        #expect(!dsStore.codes.contains("manifest.unlisted-file"))
        #expect(!dsStore.valid)
        let macOSX = verify(
            try Support.makePass(
                Support.goodFiles(), extraEntries: [ArchiveEntry(name: "__MACOSX/._pass.json", bytes: [1, 2])]))
        #expect(macOSX.codes.contains("archive.junk-file"))
    }

    @Test("a nested folder other than *.lproj is archive.nested-folder")
    func nestedFolder() throws {
        let files = Support.goodFiles() + [ArchiveEntry(name: "images/extra.png", bytes: Support.png(10, 10))]
        let report = verify(try Support.makePass(files))
        #expect(report.codes.contains("archive.nested-folder"))
        #expect(report.problems.first { $0.code == "archive.nested-folder" }?.path == "images/")
        let lproj =
            Support.goodFiles() + [ArchiveEntry(name: "en.lproj/pass.strings", bytes: Array("\"a\" = \"b\";".utf8))]
        #expect(verify(try Support.makePass(lproj)).valid)
    }

    @Test("a pass wrapped in a folder is archive.nested-folder, and pass.json is missing at the root")
    func wrappedInFolder() throws {
        let entries = Support.goodFiles().map { ArchiveEntry(name: "MyPass.pass/" + $0.name, bytes: $0.bytes) }
        let report = verify(try ArchiveWriter.makeArchive(entries))
        #expect(report.codes.contains("archive.nested-folder"))
        #expect(report.codes.contains("pass.json-missing"))
        #expect(report.codes.contains("manifest.missing"))
    }

    @Test("a file in the zip but not in the manifest is manifest.unlisted-file")
    func unlistedFile() throws {
        let extra = ArchiveEntry(name: "thumbnail.png", bytes: Support.png(90, 90))
        let report = verify(try Support.makePass(Support.goodFiles(), extraEntries: [extra]))
        #expect(report.codes.contains("manifest.unlisted-file"))
        #expect(report.problems.first { $0.code == "manifest.unlisted-file" }?.path == "thumbnail.png")
    }

    @Test("a file in the manifest but not in the zip is manifest.missing-file")
    func missingFile() throws {
        let files = Support.goodFiles()
        let listed = files + [ArchiveEntry(name: "strip.png", bytes: Support.png(375, 123))]
        let report = verify(try Support.makePass(files, manifestFiles: listed))
        #expect(report.codes.contains("manifest.missing-file"))
        #expect(!report.codes.contains("signature.invalid"))
    }

    @Test("pass.json changed after signing is manifest.hash-mismatch (the signature itself still verifies)")
    func tamperedPassJSON() throws {
        let original = Support.goodFiles()
        var tampered = original
        tampered[0] = ArchiveEntry(name: "pass.json", bytes: Support.passJSON(extra: "\"voided\": true,"))
        let report = verify(try Support.makePass(tampered, manifestFiles: original))
        #expect(report.codes.contains("manifest.hash-mismatch"))
        #expect(!report.codes.contains("signature.invalid"))
    }

    @Test("a manifest changed after signing is signature.invalid")
    func tamperedManifest() throws {
        let files = Support.goodFiles()
        let manifest = Manifest.build(files.map { ($0.name, Manifest.sha1Hex($0.bytes)) })
        let signature = try PassSigner(identity: Support.identity).sign(manifest)
        let reformatted = Array(String(decoding: manifest, as: UTF8.self).replacingOccurrences(of: "\n", with: "").utf8)
        let bytes = try ArchiveWriter.makeArchive(
            files + [
                ArchiveEntry(name: "manifest.json", bytes: reformatted),
                ArchiveEntry(name: "signature", bytes: signature),
            ])
        let report = verify(bytes)
        #expect(report.codes.contains("signature.invalid"))
        #expect(!report.codes.contains("manifest.hash-mismatch"))
    }

    @Test("no signature is signature.missing; garbage signature is signature.invalid")
    func signatureMissingOrGarbage() throws {
        let unsigned = verify(try Support.makePass(Support.goodFiles(), sign: false))
        #expect(unsigned.codes.contains("signature.missing"))
        let files = Support.goodFiles()
        let manifest = Manifest.build(files.map { ($0.name, Manifest.sha1Hex($0.bytes)) })
        let garbage = try ArchiveWriter.makeArchive(
            files + [
                ArchiveEntry(name: "manifest.json", bytes: manifest),
                ArchiveEntry(name: "signature", bytes: Array("not a signature".utf8)),
            ])
        #expect(verify(garbage).codes.contains("signature.invalid"))
    }

    @Test("no manifest is manifest.missing")
    func manifestMissing() throws {
        let bytes = try ArchiveWriter.makeArchive(Support.goodFiles())
        let report = verify(bytes)
        #expect(report.codes.contains("manifest.missing"))
        #expect(report.codes.contains("signature.missing"))
    }

    @Test("expired later: certificate.expired against now, 'valid when made' against the signing time")
    func expiredLater() throws {
        let bytes = try Support.makePass(Support.goodFiles())
        let report = verify(bytes, now: Date().addingTimeInterval(400 * 86_400))
        #expect(report.codes.contains("certificate.expired"))
        #expect(!report.codes.contains("certificate.intermediate-expired"))
        #expect(report.notes.contains { $0.hasPrefix("signature was valid when made") })
        let early = verify(bytes, now: Date().addingTimeInterval(-10 * 86_400))
        #expect(early.codes.contains("certificate.not-yet-valid"))
    }

    @Test("pass type ID and team that differ from the certificate")
    func identityMismatch() throws {
        let json = Array(
            String(decoding: Support.passJSON(), as: UTF8.self)
                .replacingOccurrences(of: Support.passTypeIdentifier, with: "pass.other.id")
                .replacingOccurrences(of: Support.teamIdentifier, with: "OTHERTEAM1").utf8)
        let report = verify(try Support.makePass(Support.goodFiles(passJSON: json)))
        #expect(report.codes.contains("certificate.pass-type-mismatch"))
        #expect(report.codes.contains("certificate.team-mismatch"))
        #expect(report.problems.first { $0.code == "certificate.team-mismatch" }?.path == "teamIdentifier")
    }

    @Test("nfc or personalization.json without an NFC certificate is certificate.nfc-required")
    func nfcRequired() throws {
        let nfc = "\"nfc\": {\"message\": \"m\", \"encryptionPublicKey\": \"MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgAC\"},"
        let report = verify(try Support.makePass(Support.goodFiles(passJSON: Support.passJSON(extra: nfc))))
        #expect(report.codes.contains("certificate.nfc-required"))
        let personalization = ArchiveEntry(
            name: "personalization.json",
            bytes: Array(
                "{\"requiredPersonalizationFields\": [\"PKPassPersonalizationFieldName\"], \"description\": \"Join\"}"
                    .utf8))
        let second = verify(try Support.makePass(Support.goodFiles() + [personalization]))
        #expect(second.codes.contains("certificate.nfc-required"))
        #expect(second.codes.contains("pass.personalization-invalid"))
    }

    @Test("pass.json: lenient is a warning, broken is pass.json-invalid, model rules come through")
    func passJSON() throws {
        let lenient = Array(
            String(decoding: Support.passJSON(), as: UTF8.self)
                .replacingOccurrences(of: "\"Ada\"}]}}", with: "\"Ada\"},]}}").utf8)
        let lenientReport = verify(try Support.makePass(Support.goodFiles(passJSON: lenient)))
        #expect(lenientReport.codes.contains("pass.json-lenient"))
        #expect(lenientReport.problems.first { $0.code == "pass.json-lenient" }?.severity == .warning)
        let broken = verify(try Support.makePass(Support.goodFiles(passJSON: Array("{\"formatVersion\": ".utf8))))
        #expect(broken.codes.contains("pass.json-invalid"))
        let noStyle = Array(
            """
            {"formatVersion": 1, "passTypeIdentifier": "\(Support.passTypeIdentifier)", "serialNumber": "S1",
             "teamIdentifier": "\(Support.teamIdentifier)", "organizationName": "O", "description": "D"}
            """.utf8)
        #expect(verify(try Support.makePass(Support.goodFiles(passJSON: noStyle))).codes.contains("pass.no-style"))
    }

    @Test("images: missing icon, renamed JPEG, wrong sizes (warnings), image the style never shows")
    func images() throws {
        let noIcon = Support.goodFiles().filter { !$0.name.hasPrefix("icon") }
        #expect(verify(try Support.makePass(noIcon)).codes.contains("image.missing-icon"))

        let jpeg =
            Support.goodFiles() + [
                ArchiveEntry(name: "thumbnail.png", bytes: [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 40))
            ]
        let jpegReport = verify(try Support.makePass(jpeg))
        #expect(jpegReport.codes.contains("image.not-png"))
        #expect(jpegReport.problems.first { $0.code == "image.not-png" }?.message.contains("JPEG") == true)

        var sized = Support.goodFiles()
        sized[1] = ArchiveEntry(name: "icon.png", bytes: Support.png(30, 29))
        sized.append(ArchiveEntry(name: "logo@3x.png", bytes: Support.png(481, 150)))
        sized.append(ArchiveEntry(name: "strip.png", bytes: Support.png(375, 123)))
        let sizedReport = verify(try Support.makePass(sized))
        #expect(sizedReport.valid)
        #expect(sizedReport.codes.filter { $0 == "image.wrong-size" }.count == 2)
        #expect(sizedReport.codes.contains("image.not-shown"))  // strip on a generic pass
    }

    @Test("localization: different key sets and image resolutions are localization.inconsistent")
    func localization() throws {
        let files =
            Support.goodFiles() + [
                ArchiveEntry(name: "en.lproj/pass.strings", bytes: Array("\"a\" = \"A\";\n\"b\" = \"B\";".utf8)),
                ArchiveEntry(name: "fr.lproj/pass.strings", bytes: Array("\"a\" = \"A\";".utf8)),
                ArchiveEntry(name: "en.lproj/logo.png", bytes: Support.png(100, 40)),
                ArchiveEntry(name: "en.lproj/logo@2x.png", bytes: Support.png(200, 80)),
                ArchiveEntry(name: "fr.lproj/logo.png", bytes: Support.png(100, 40)),
            ]
        let report = verify(try Support.makePass(files))
        let inconsistent = report.problems.filter { $0.code == "localization.inconsistent" }
        #expect(inconsistent.count == 2)
        #expect(inconsistent.contains { $0.path == "fr.lproj/pass.strings" && $0.message.contains("b") })
        #expect(inconsistent.contains { $0.path == "fr.lproj/" && $0.message.contains("logo@2x.png") })
        #expect(report.valid)  // warnings only

        let utf16 = PassStrings16.encode("\"a\" = \"Ä\";\n\"b\" = \"B\";")
        let consistent =
            Support.goodFiles() + [
                ArchiveEntry(name: "en.lproj/pass.strings", bytes: Array("\"a\" = \"A\";\n\"b\" = \"B\";".utf8)),
                ArchiveEntry(name: "de.lproj/pass.strings", bytes: utf16),
            ]
        #expect(verify(try Support.makePass(consistent)).codes == ["certificate.not-apple"])
    }
}

/// UTF-16LE with BOM, the encoding Apple recommends for pass.strings.
enum PassStrings16 {
    static func encode(_ text: String) -> [UInt8] {
        [0xFF, 0xFE] + text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    }
}
