import Foundation
import Testing

@testable import PassArchive

@Suite("ArchiveReader")
struct ArchiveReaderTests {
    static let entries: [ArchiveEntry] = [
        ArchiveEntry(name: "icon.png", bytes: pngLike),
        ArchiveEntry(name: "pass.json", bytes: utf8(String(repeating: "{\"formatVersion\": 1}\n", count: 50))),
    ]

    @Test("an empty file is reported, not opened as an empty archive")
    func emptyInput() {
        #expect(throws: ArchiveError.emptyInput(file: "empty.pkpass")) {
            try ArchiveReader(bytes: [], name: "empty.pkpass")
        }
    }

    @Test("garbage is reported as not a zip, naming the file and libzip's reason")
    func garbage() {
        let error = #expect(throws: ArchiveError.self) {
            try ArchiveReader(bytes: utf8("{\"formatVersion\": 1} this is JSON, not a zip"), name: "pass.pkpass")
        }
        guard case .notAZip(let file, let reason)? = error else {
            Issue.record("expected notAZip, got \(String(describing: error))")
            return
        }
        #expect(file == "pass.pkpass")
        #expect(reason == "Not a zip archive")
        #expect(error?.description.contains("pass.pkpass") == true)
    }

    @Test("every truncation of a valid archive throws or reports, never crashes")
    func truncated() throws {
        let zip = try ArchiveWriter.makeArchive(Self.entries)
        for length in stride(from: 1, to: zip.count, by: 97) + [zip.count - 1, zip.count - 22] {
            #expect(throws: ArchiveError.self, "length \(length)") {
                try ArchiveReader(bytes: Array(zip[0..<length]), name: "cut.pkpass")
            }
        }
    }

    @Test("corrupting any single byte never crashes the reader")
    func corruptedBytes() throws {
        let zip = try ArchiveWriter.makeArchive(Self.entries)
        var outcomes = (opened: 0, refused: 0)
        for offset in stride(from: 0, to: zip.count, by: 7) {
            var damaged = zip
            damaged[offset] ^= 0x5A
            do {
                let reader = try ArchiveReader(bytes: damaged, name: "fuzz.pkpass")
                _ = reader.files
                for name in reader.entryNames { _ = try? reader.read(name) }
                outcomes.opened += 1
            } catch {
                #expect(!error.description.isEmpty)
                outcomes.refused += 1
            }
        }
        #expect(outcomes.opened > 0 && outcomes.refused > 0)
    }

    @Test("a flipped data byte is a CRC error on that entry; the others still read")
    func crcError() throws {
        var zip = try ArchiveWriter.makeArchive(Self.entries)
        // icon.png is stored first: its data starts right after the 30-byte header and the 8-byte name.
        zip[30 + 8 + 100] ^= 0xFF
        let reader = try ArchiveReader(bytes: zip, name: "bad.pkpass")
        #expect(reader.entryNames == ["icon.png", "pass.json"])
        #expect(throws: ArchiveError.entryUnreadable(file: "bad.pkpass", entry: "icon.png", reason: "CRC error")) {
            try reader.read("icon.png")
        }
        #expect(try reader.read("pass.json") == Self.entries[1].bytes)
        #expect(reader.files.map(\.name) == ["pass.json"])
        #expect(reader.unreadableEntries.count == 1)
    }

    @Test("damaged deflate data is reported on that entry")
    func badDeflate() throws {
        let entries = [ArchiveEntry(name: "pass.json", bytes: Self.entries[1].bytes)]
        var zip = try ArchiveWriter.makeArchive(entries)
        for offset in (30 + 9)..<(30 + 9 + 20) { zip[offset] = 0xFF }
        let reader = try ArchiveReader(bytes: zip, name: "bad.pkpass")
        #expect(throws: ArchiveError.self) { try reader.read("pass.json") }
        #expect(reader.files.isEmpty)
    }

    @Test("a missing entry names the file and lists what is there")
    func missing() throws {
        let reader = try ArchiveReader(bytes: try ArchiveWriter.makeArchive(Self.entries), name: "x.pkpass")
        let expected = ArchiveError.entryNotFound(
            file: "x.pkpass", entry: "signature", available: ["icon.png", "pass.json"])
        #expect(throws: expected) { try reader.read("signature") }
        #expect(expected.description.contains("icon.png, pass.json"))
    }

    @Test("directory entries and junk are listed; files skips directories")
    func directories() throws {
        try #require(hasTool("zip"), "zip is not installed")
        let dir = try TempDir()
        let root = dir.path("src")
        try FileManager.default.createDirectory(atPath: root + "/en.lproj", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/__MACOSX", withIntermediateDirectories: true)
        _ = try TempDir.writeFile(utf8("{}"), root + "/pass.json")
        _ = try TempDir.writeFile(utf8("\"a\" = \"b\";"), root + "/en.lproj/pass.strings")
        _ = try TempDir.writeFile([0, 5, 22, 7], root + "/__MACOSX/._pass.json")
        let made = try runTool("zip", ["-q", "-r", "-X", dir.path("folders.zip"), "."], in: root)
        try #require(made.status == 0, "\(made.output)")
        let reader = try ArchiveReader(contentsOf: dir.path("folders.zip"))
        #expect(
            Set(reader.entryNames) == [
                "en.lproj/", "en.lproj/pass.strings", "__MACOSX/", "__MACOSX/._pass.json", "pass.json",
            ])
        #expect(Set(reader.files.map(\.name)) == ["en.lproj/pass.strings", "__MACOSX/._pass.json", "pass.json"])
        #expect(reader.contains("en.lproj/"))
        #expect(throws: ArchiveError.self) { try reader.read("en.lproj/") }
        #expect(try reader.read("en.lproj/pass.strings") == utf8("\"a\" = \"b\";"))
    }

    @Test("streamed zips (data descriptors) read; encrypted entries are reported, not read")
    func otherWriters() throws {
        try #require(hasTool("zip") && hasTool("sh"), "zip is not installed")
        let dir = try TempDir()
        let json = utf8(String(repeating: "{\"serialNumber\": \"A1\"}\n", count: 20))
        _ = try dir.write(json, "pass.json")
        let streamed = try runTool("sh", ["-c", "cat pass.json | zip -q - - > streamed.zip"], in: dir.path)
        try #require(streamed.status == 0, "\(streamed.output)")
        let reader = try ArchiveReader(contentsOf: dir.path("streamed.zip"))
        #expect(reader.entryNames == ["-"])
        #expect(try reader.read("-") == json)

        let locked = try runTool("zip", ["-q", "-P", "secret", "locked.zip", "pass.json"], in: dir.path)
        try #require(locked.status == 0, "\(locked.output)")
        let encrypted = try ArchiveReader(contentsOf: dir.path("locked.zip"))
        #expect(encrypted.entryNames == ["pass.json"])
        #expect(encrypted.files.isEmpty)
        let error = #expect(throws: ArchiveError.self) { try encrypted.read("pass.json") }
        #expect(error?.description.contains("password") == true, "\(String(describing: error))")
    }

    @Test("entries over the size limit are refused, the rest read")
    func sizeLimit() throws {
        let big = ArchiveEntry(name: "big.json", bytes: [UInt8](repeating: 0x20, count: 200_000))
        let zip = try ArchiveWriter.makeArchive([Self.entries[1], big])
        let reader = try ArchiveReader(bytes: zip, name: "bomb.zip", sizeLimit: 100_000)
        #expect(throws: ArchiveError.entryTooLarge(file: "bomb.zip", entry: "big.json", limit: 100_000)) {
            try reader.read("big.json")
        }
        #expect(try reader.read("pass.json") == Self.entries[1].bytes)
    }

    @Test("a missing file is a file-system error naming the path")
    func missingFile() {
        #expect(throws: ArchiveError.self) { try ArchiveReader(contentsOf: "/nonexistent/pass.pkpass") }
    }
}

extension TempDir {
    static func writeFile(_ bytes: [UInt8], _ path: String) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
