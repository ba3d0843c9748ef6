import Foundation
import Testing

@testable import PassArchive

/// Reads the real passes in `../shared/fixtures/pkpass`; skipped with a message when the folder is absent.
@Suite(
    "Real pass fixtures: reading and rewriting the archives",
    .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
struct FixtureTests {
    static let folder = PackagePaths.fixtures.map { $0.appendingPathComponent("pkpass").path }
    static let signedPasses = [
        "apple-sample__Event.pkpass", "apple-sample__StoreCard.pkpass",
        "ueman__boarding_pass_ui.pkpass", "ueman__generic_with_invalid_checksum.pkpass",
    ]

    @Test("signed fixtures list pass.json, manifest.json and signature", arguments: signedPasses)
    func signedPass(file: String) throws {
        let folder = try #require(Self.folder)
        let reader = try ArchiveReader(contentsOf: folder + "/" + file)
        for required in ["pass.json", "manifest.json", "signature", "icon.png"] {
            #expect(reader.entryNames.contains(required), "\(file) lacks \(required)")
        }
        #expect(reader.unreadableEntries.isEmpty)
        #expect(reader.files.count == reader.entryNames.count)
        let pass = try reader.read("pass.json")
        #expect(pass.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 } == UInt8(ascii: "{"))
    }

    @Test("Apple's Event sample keeps its archive order")
    func eventOrder() throws {
        let folder = try #require(Self.folder)
        let reader = try ArchiveReader(contentsOf: folder + "/apple-sample__Event.pkpass")
        #expect(reader.entryNames.first == "background.png")
        #expect(reader.entryNames.last == "thumbnail@2x.png")
        #expect(reader.entryNames.count == 11)
    }

    @Test("the Lufthansa .pkpasses bundle holds two passes, each with pass.json")
    func bundle() throws {
        let folder = try #require(Self.folder)
        let bundle = try ArchiveReader(contentsOf: folder + "/kitinerary__lufthansa.pkpasses")
        #expect(bundle.entryNames == ["lufthansa.pkpass", "lufthansa-with-timezone.pkpass"])
        #expect(PassBundle.passes(in: bundle).count == 2)
        for pass in bundle.files {
            let inner = try ArchiveReader(bytes: pass.bytes, name: pass.name)
            #expect(inner.entryNames == ["pass.json"])  // scrubbed, unsigned passes
            #expect(try inner.read("pass.json").count > 1000)
        }
    }

    @Test("a fixture rewritten by ArchiveWriter keeps every file")
    func rewrite() throws {
        let folder = try #require(Self.folder)
        let original = try ArchiveReader(contentsOf: folder + "/apple-sample__StoreCard.pkpass")
        let sorted = original.files.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        let copy = try ArchiveReader(bytes: try ArchiveWriter.makeArchive(sorted), name: "copy.pkpass")
        #expect(copy.files == sorted)
    }
}
