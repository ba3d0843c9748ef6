import Foundation
import Testing

@testable import PassArchive

@Suite("ArchiveWriter")
struct ArchiveWriterTests {
    static let sample: [ArchiveEntry] = [
        ArchiveEntry(name: "en.lproj/pass.strings", bytes: utf8("\"gate\" = \"Gate\";\n")),
        ArchiveEntry(name: "icon.png", bytes: pngLike),
        ArchiveEntry(name: "icon@2x.png", bytes: pngLike + pngLike),
        ArchiveEntry(
            name: "manifest.json", bytes: utf8(String(repeating: "{\"a\": \"0123456789abcdef\"}\n", count: 20))),
        ArchiveEntry(name: "pass.json", bytes: utf8(String(repeating: "{\"formatVersion\": 1}\n", count: 30))),
        ArchiveEntry(name: "signature", bytes: noiseBytes(count: 512, seed: 3)),
    ]

    @Test("round-trip through the reader keeps names, order and bytes")
    func roundTrip() throws {
        let zip = try ArchiveWriter.makeArchive(Self.sample)
        let reader = try ArchiveReader(bytes: zip, name: "sample.pkpass")
        #expect(reader.entryNames == Self.sample.map(\.name))
        #expect(reader.files == Self.sample)
        #expect(try reader.read("pass.json") == Self.sample[4].bytes)
    }

    /// FuzzArchive found a leak here: libzip never freed the buffer `ZipSource.copying` made for an empty entry,
    /// whether the entry was then added or, as with this input's control character in the name, refused.
    @Test("an empty entry needs no buffer: refused by name or written, it reads back empty (fuzz: leak-882c5069)")
    func emptyEntry() throws {
        let input: [UInt8] = [0x01, 0x6C, 0x75, 0x66, 0x74, 0x68, 0x61, 0x6E, 0x73, 0x01, 0x6C, 0x75, 0x66, 0x61, 0x74]
        let name = String(decoding: input.dropFirst(), as: UTF8.self)  // entries mode: one entry, no content
        #expect(throws: ArchiveError.self) { try ArchiveWriter.makeArchive([ArchiveEntry(name: name, bytes: [])]) }
        let zip = try ArchiveWriter.makeArchive([ArchiveEntry(name: "empty.txt", bytes: []), Self.sample[4]])
        let reader = try ArchiveReader(bytes: zip, name: "empty.pkpass")
        #expect(reader.entryNames == ["empty.txt", "pass.json"])
        #expect(try reader.read("empty.txt") == [])
    }

    @Test("identical input gives byte-identical output")
    func deterministic() throws {
        let first = try ArchiveWriter.makeArchive(Self.sample)
        let second = try ArchiveWriter.makeArchive(Self.sample)
        #expect(first == second)
        let changed = try ArchiveWriter.makeArchive(
            Self.sample.map { $0.name == "pass.json" ? ArchiveEntry(name: $0.name, bytes: utf8("{}")) : $0 })
        #expect(changed != first)
    }

    @Test("unzip accepts the archive, lists entries in order, stores PNG and deflates text")
    func unzipAccepts() throws {
        try #require(hasTool("unzip"), "unzip is not installed")
        let dir = try TempDir()
        let path = try dir.write(try ArchiveWriter.makeArchive(Self.sample), "sample.pkpass")
        let test = try runTool("unzip", ["-t", path])
        #expect(test.status == 0, "\(test.output)")
        #expect(test.output.contains("No errors detected"))
        let verbose = try runTool("unzip", ["-v", path])
        #expect(verbose.status == 0)
        let rows = parseUnzipVerbose(verbose.output)
        #expect(rows.map(\.name) == Self.sample.map(\.name))
        for row in rows {
            let stored = row.name.hasSuffix(".png") || row.name == "signature"
            #expect(stored ? row.method == "Stored" : row.method.hasPrefix("Defl"), "\(row.name): \(row.method)")
        }
        // Fixed timestamp, no directory entries, no extra fields.
        #expect(verbose.output.contains("2001-01-01 00:00"))
        let info = try runTool("zipinfo", ["-v", path])
        #expect(info.status == 0)
        let extraFields = zipinfoValues(info.output, key: "length of extra field")
        #expect(extraFields.count == Self.sample.count * 1)
        #expect(extraFields.allSatisfy { $0 == "0 bytes" }, "\(extraFields)")
        #expect(zipinfoValues(info.output, key: "extended local header").allSatisfy { $0 == "no" })
        #expect(
            zipinfoValues(info.output, key: "file last modified on (DOS date/time)").allSatisfy {
                $0 == "2001 Jan 1 00:00:00"
            })
    }

    @Test("local headers carry no extra fields and no data descriptor")
    func localHeadersAreBare() throws {
        let headers = localHeaders(try ArchiveWriter.makeArchive(Self.sample))
        #expect(headers.map(\.name) == Self.sample.map(\.name))
        #expect(headers.allSatisfy { $0.extraLength == 0 })
        #expect(headers.allSatisfy { $0.flags & 0x08 == 0 })  // bit 3: sizes in a trailing data descriptor
    }

    @Test("entries of several megabytes round-trip")
    func largeEntries() throws {
        let big = noiseBytes(count: 6 * 1024 * 1024, seed: 11)
        let text = utf8(String(repeating: "loyalty points 1234567890\n", count: 200_000))
        let entries = [ArchiveEntry(name: "big.json", bytes: text), ArchiveEntry(name: "big.png", bytes: big)]
        let zip = try ArchiveWriter.makeArchive(entries)
        #expect(zip.count < big.count + text.count / 4)
        let reader = try ArchiveReader(bytes: zip, name: "big.zip")
        #expect(try reader.read("big.png") == big)
        #expect(try reader.read("big.json") == text)
    }

    @Test("bad names are refused", arguments: ["", "/abs.json", "dir/", "a/../b", "a//b", "a\\b", "./x"])
    func badNames(name: String) {
        #expect(throws: ArchiveError.self) {
            try ArchiveWriter.makeArchive([ArchiveEntry(name: name, bytes: [1])])
        }
    }

    @Test("a duplicate name is refused and named")
    func duplicate() {
        let entry = ArchiveEntry(name: "pass.json", bytes: utf8("{}"))
        #expect(throws: ArchiveError.duplicateEntry(entry: "pass.json")) {
            try ArchiveWriter.makeArchive([entry, entry])
        }
    }

    @Test("empty entries and an empty archive are valid zips")
    func empties() throws {
        let zip = try ArchiveWriter.makeArchive([ArchiveEntry(name: "empty.json", bytes: [])])
        #expect(try ArchiveReader(bytes: zip, name: "e.zip").read("empty.json") == [])
        let none = try ArchiveWriter.makeArchive([])
        #expect(try ArchiveReader(bytes: none, name: "none.zip").entryNames == [])
    }
}
