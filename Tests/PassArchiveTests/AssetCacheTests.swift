import Foundation
import Testing

@testable import PassArchive

@Suite("AssetCache")
struct AssetCacheTests {
    static let assets: [ArchiveEntry] = [
        ArchiveEntry(name: "en.lproj/pass.strings", bytes: utf8(String(repeating: "\"a\" = \"b\";\n", count: 40))),
        ArchiveEntry(name: "icon.png", bytes: pngLike),
        ArchiveEntry(name: "logo.png", bytes: noiseBytes(count: 9000, seed: 5)),
        ArchiveEntry(name: "strip@2x.png", bytes: noiseBytes(count: 2_500_000, seed: 9)),
    ]
    static let perPass: [ArchiveEntry] = [
        ArchiveEntry(name: "manifest.json", bytes: utf8(String(repeating: "{\"icon.png\": \"abc\"}\n", count: 10))),
        ArchiveEntry(name: "pass.json", bytes: utf8(String(repeating: "{\"serialNumber\": \"42\"}\n", count: 10))),
        ArchiveEntry(name: "signature", bytes: noiseBytes(count: 700, seed: 1)),
    ]

    static func sortedUnion() -> [ArchiveEntry] {
        (assets + perPass).sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    @Test("shared path gives the same entries, order and files as the plain path")
    func sameAsPlain() throws {
        let cache = try AssetCache(Self.assets)
        let shared = try ArchiveWriter.makeArchive(
            Self.perPass, sharedAssets: cache, sharedNames: Self.assets.map(\.name).reversed())
        let plain = try ArchiveWriter.makeArchive(Self.sortedUnion())
        let reader = try ArchiveReader(bytes: shared, name: "shared.pkpass")
        #expect(reader.entryNames == Self.sortedUnion().map(\.name))
        #expect(reader.files == Self.sortedUnion())
        #expect(reader.unreadableEntries.isEmpty)
        #expect(try ArchiveReader(bytes: plain, name: "plain.pkpass").files == reader.files)
    }

    @Test("a layout made once gives each archive what the one-call path gives, own entries before, between and after")
    func layoutReused() throws {
        let cache = try AssetCache(Self.assets)
        let layout = try SharedAssetLayout(cache, names: Self.assets.map(\.name).reversed())
        let owns: [[ArchiveEntry]] = [
            Self.perPass, [], [ArchiveEntry(name: "0-first.json", bytes: utf8("{}"))],
            [ArchiveEntry(name: "zz-last", bytes: noiseBytes(count: 9000, seed: 3))] + Self.perPass.reversed(),
            [ArchiveEntry(name: "j.png", bytes: pngLike), ArchiveEntry(name: "en.lproj/a", bytes: utf8("x"))],
        ]
        for own in owns {
            let reused = try layout.archiveParts(adding: own).bytes
            #expect(
                reused
                    == (try ArchiveWriter.makeArchive(own, sharedAssets: cache, sharedNames: Self.assets.map(\.name))),
                "\(own.map(\.name))")
            let names = (Self.assets + own).map(\.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            #expect(try ArchiveReader(bytes: reused, name: "reused.pkpass").entryNames == names)
        }
        #expect(throws: ArchiveError.duplicateEntry(entry: "icon.png")) {
            try layout.archiveParts(adding: [ArchiveEntry(name: "icon.png", bytes: [1])])
        }
        #expect(throws: ArchiveError.duplicateEntry(entry: "a.json")) {
            try layout.archiveParts(adding: [
                ArchiveEntry(name: "a.json", bytes: [1]), ArchiveEntry(name: "a.json", bytes: [2]),
            ])
        }
        #expect(throws: ArchiveError.self) { try SharedAssetLayout(cache, names: ["missing.png"]) }
    }

    @Test("assets that follow one another in the archive go out as one piece of the cache's buffer")
    func adjacentAssetsJoined() throws {
        // Given in any order.
        let cache = try AssetCache(Self.assets.reversed())
        let layout = try SharedAssetLayout(cache, names: Self.assets.map(\.name))
        // en.lproj/pass.strings, icon.png, logo.png | manifest.json, pass.json, signature | strip@2x.png | directory
        let parts = try layout.archiveParts(adding: Self.perPass)
        #expect(parts.pieces.count == 4)
        #expect(parts.pieces[0].storage === parts.pieces[2].storage)
        #expect(
            parts.pieces[1].storage === parts.pieces[3].storage && parts.pieces[0].storage !== parts.pieces[1].storage)
        let reader = try ArchiveReader(bytes: parts.bytes, name: "joined.pkpass")
        #expect(reader.files == Self.sortedUnion())
        // Nothing of the pass's own between them: every asset in one piece.
        #expect(try layout.archiveParts(adding: [ArchiveEntry(name: "zz", bytes: [1])]).pieces.count == 2)
    }

    @Test("unzip -t accepts the shared-asset archive and keeps each method")
    func unzipAccepts() throws {
        try #require(hasTool("unzip"), "unzip is not installed")
        let dir = try TempDir()
        let cache = try AssetCache(Self.assets)
        let zip = try ArchiveWriter.makeArchive(Self.perPass, sharedAssets: cache, sharedNames: Self.assets.map(\.name))
        let path = try dir.write(zip, "shared.pkpass")
        let test = try runTool("unzip", ["-t", path])
        #expect(test.status == 0 && test.output.contains("No errors detected"), "\(test.output)")
        let rows = parseUnzipVerbose(try runTool("unzip", ["-v", path]).output)
        #expect(rows.map(\.name) == Self.sortedUnion().map(\.name))
        // Images and the signature are stored; a per-pass entry up to `storedUpTo` bytes is too (deflating a few
        // KB of JSON costs more than it saves); the rest (the cached pass.strings here) deflated.
        let smallPerPass = Set(Self.perPass.filter { $0.bytes.count <= ZipEntryRecord.storedUpTo }.map(\.name))
        #expect(smallPerPass == ["manifest.json", "pass.json", "signature"])
        for row in rows {
            let stored = row.name.hasSuffix(".png") || smallPerPass.contains(row.name)
            #expect(stored ? row.method == "Stored" : row.method.hasPrefix("Defl"), "\(row.name)")
        }
    }

    @Test("a subset of the cached assets can be used")
    func subset() throws {
        let cache = try AssetCache(Self.assets)
        let zip = try ArchiveWriter.makeArchive(Self.perPass, sharedAssets: cache, sharedNames: ["icon.png"])
        let reader = try ArchiveReader(bytes: zip, name: "subset.pkpass")
        #expect(reader.entryNames == ["icon.png", "manifest.json", "pass.json", "signature"])
        #expect(try reader.read("icon.png") == pngLike)
        #expect(cache.contains("logo.png"))
        #expect(!cache.contains("thumbnail.png"))
        #expect(cache.entry("logo.png") == Self.assets[2])
        #expect(cache.names == Self.assets.map(\.name))
    }

    @Test("unknown shared names and clashes with per-pass entries are refused")
    func refusals() throws {
        let cache = try AssetCache(Self.assets)
        #expect(throws: ArchiveError.assetNotCached(entry: "thumbnail.png", cached: Self.assets.map(\.name))) {
            try ArchiveWriter.makeArchive(Self.perPass, sharedAssets: cache, sharedNames: ["thumbnail.png"])
        }
        let clash = [ArchiveEntry(name: "icon.png", bytes: [1, 2, 3])]
        #expect(throws: ArchiveError.duplicateEntry(entry: "icon.png")) {
            try ArchiveWriter.makeArchive(clash, sharedAssets: cache, sharedNames: ["icon.png"])
        }
        #expect(throws: ArchiveError.duplicateEntry(entry: "icon.png")) {
            try AssetCache([clash[0], clash[0]])
        }
    }

    @Test("many threads can build from one cache at once")
    func concurrentBuilds() async throws {
        let cache = try AssetCache(Self.assets)
        let names = Self.assets.map(\.name)
        let expected = try ArchiveWriter.makeArchive(Self.perPass, sharedAssets: cache, sharedNames: names)
        let results = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try ArchiveWriter.makeArchive(Self.perPass, sharedAssets: cache, sharedNames: names)
                }
            }
            var all: [[UInt8]] = []
            for try await zip in group { all.append(zip) }
            return all
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == expected })
    }
}
