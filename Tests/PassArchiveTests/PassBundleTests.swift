import Foundation
import Testing

@testable import PassArchive

@Suite("PassBundle")
struct PassBundleTests {
    static func passes(_ count: Int) throws -> [(name: String, bytes: [UInt8])] {
        try (0..<count).map { index in
            let pass = try ArchiveWriter.makeArchive([
                ArchiveEntry(name: "pass.json", bytes: utf8("{\"serialNumber\": \"\(index)\"}"))
            ])
            return (name: "pass-\(index).pkpass", bytes: pass)
        }
    }

    @Test("bundles up to ten passes, stored, in order, and each inner pass reads back")
    func bundle() throws {
        let passes = try Self.passes(PassBundle.maxPasses)
        let bundle = try PassBundle.make(passes)
        let reader = try ArchiveReader(bytes: bundle, name: "passes.pkpasses")
        #expect(reader.entryNames == passes.map(\.name))
        #expect(PassBundle.passes(in: reader).map(\.name) == passes.map(\.name))
        for (entry, pass) in zip(reader.files, passes) {
            #expect(entry.bytes == pass.bytes)
            #expect(try ArchiveReader(bytes: entry.bytes, name: entry.name).entryNames == ["pass.json"])
        }
        try #require(hasTool("unzip"), "unzip is not installed")
        let dir = try TempDir()
        let path = try dir.write(bundle, "passes.pkpasses")
        #expect(try runTool("unzip", ["-t", path]).status == 0)
        #expect(parseUnzipVerbose(try runTool("unzip", ["-v", path]).output).allSatisfy { $0.method == "Stored" })
    }

    @Test("a bundle of passes held as pieces has the bytes libzip writes for the same passes")
    func piecesMatchLibzip() throws {
        let passes = try Self.passes(7)
        // Each pass split into uneven pieces, as an issued pass's parts are.
        let pieces = passes.map { pass in
            (
                name: pass.name,
                parts: ArchiveParts([pass.bytes[..<5], pass.bytes[5..<40], pass.bytes[40...]].map(piece))
            )
        }
        let fromPieces = try PassBundle.makeParts(pieces).bytes
        let libzip = try ArchiveWriter.makeArchive(passes.map { ArchiveEntry(name: $0.name, bytes: $0.bytes) })
        #expect(fromPieces == libzip)
        #expect(try PassBundle.make(passes) == libzip)
    }

    @Test("more than ten passes are refused")
    func tooMany() throws {
        let passes = try Self.passes(11)
        #expect(throws: ArchiveError.tooManyPasses(count: 11, limit: 10)) { try PassBundle.make(passes) }
    }

    @Test("duplicate names and an empty list are refused")
    func refusals() throws {
        let one = try Self.passes(1)[0]
        #expect(throws: ArchiveError.duplicateEntry(entry: "a.pkpass")) {
            try PassBundle.make([(name: "a.pkpass", bytes: one.bytes), (name: "a", bytes: one.bytes)])
        }
        #expect(throws: ArchiveError.emptyBundle) { try PassBundle.make([]) }
    }
}

/// `bytes` in memory of its own, as an issued pass's pieces are.
private func piece(_ bytes: ArraySlice<UInt8>) -> ArchivePiece {
    let storage = ArchiveBytes(Array(bytes))
    return ArchivePiece(storage: storage, range: 0..<storage.count)
}
