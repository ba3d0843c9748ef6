import Foundation
import PassArchive
import Testing
@testable import PassMint

@Suite("TemplateArchive: zipped templates")
struct TemplateArchiveTests {
    static let passJSON = Array(
        #"{"formatVersion": 1, "serialNumber": "1", "posterGeneric": {"primaryFields": [{"key": "NAME", "value": "x"}]}}"#
            .utf8)

    /// Writes a zip of `entries` to a temporary file and returns its path.
    static func zip(_ entries: [ArchiveEntry], name: String = "t.pkpasstemplate") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tpl-zip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try Data(ArchiveWriter.makeArchive(entries)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a zipped .pkpasstemplate loads through PassFactory, inside one folder or flat; tooling.json is not an asset")
    func loads() throws {
        let tooling = ArchiveEntry(
            name: "club.pkpasstemplate/tooling.json", bytes: Array(#"{"designerVersion": "1"}"#.utf8))
        let wrapped = try Self.zip(
            [
                ArchiveEntry(name: "club.pkpasstemplate/pass.json", bytes: Self.passJSON), tooling,
                ArchiveEntry(name: "club.pkpasstemplate/icon.png", bytes: [1, 2, 3]),
            ], name: "club.zip")
        let template = try PassFactory.loadTemplate(wrapped)
        #expect(template.directory == wrapped + "/club.pkpasstemplate")
        #expect(template.isDesignerTemplate && template.tooling?.designerVersion == "1")
        #expect(template.keyFields == ["NAME"])
        let flat = try Self.zip([ArchiveEntry(name: "pass.json", bytes: Self.passJSON)])
        #expect(try PassFactory.loadTemplate(flat).keyFields == ["NAME"])
    }

    @Test("entry names that leave the template, too many entries and non-zips are refused with the file named")
    func limits() throws {
        for bad in ["../x.png", "/etc/passwd", "a\\..\\b.png", "a/../../b.png"] {
            #expect(!TemplateArchive.isSafe(bad), "\(bad)")
        }
        #expect(TemplateArchive.isSafe("en.lproj/pass.strings") && TemplateArchive.isSafe("a..b.png"))
        var many = [ArchiveEntry(name: "pass.json", bytes: Self.passJSON)]
        for i in 0...TemplateArchive.limits.maxEntries { many.append(ArchiveEntry(name: "f\(i).png", bytes: [0])) }
        let crowded = try Self.zip(many)
        #expect(throws: PassMintError.self) { try PassFactory.loadTemplate(crowded) }
        do {
            _ = try PassFactory.loadTemplate(crowded)
        } catch {
            #expect(error.description.contains(crowded) && error.description.contains("entries"))
        }
        let notZip = FileManager.default.temporaryDirectory.appendingPathComponent("not-\(UUID().uuidString).zip").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: notZip))
        do {
            _ = try PassFactory.loadTemplate(notZip)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains(notZip) && error.description.contains("not a zip"))
        }
        do {
            _ = try PassFactory.loadTemplate("/no/such/template.zip")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("does not exist"))
        }
    }
}
