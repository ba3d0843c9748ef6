import Foundation
import Synchronization
import Testing

@testable import PassArchive

@Suite("ZipEntryRecord")
struct ZipEntryRecordTests {
    static let entries: [ArchiveEntry] = [
        ArchiveEntry(
            name: "pass.json", bytes: utf8(String(repeating: "{\"serialNumber\": \"42\", \"x\": 1}\n", count: 80))),
        ArchiveEntry(name: "manifest.json", bytes: utf8("{}")),
        ArchiveEntry(name: "empty.json", bytes: []),
        ArchiveEntry(name: "de.lproj/Grüße.strings", bytes: utf8("\"a\" = \"ä\";\n")),
        ArchiveEntry(name: "big.json", bytes: utf8(String(repeating: "{\"k\": \"v\"}", count: 30_000))),
        ArchiveEntry(name: "signature", bytes: noiseBytes(count: 2_600, seed: 3)),
    ]

    @Test("records written directly read back through libzip with the right method, CRC and content")
    func readBack() throws {
        let cache = try AssetCache([ArchiveEntry(name: "icon.png", bytes: pngLike)])
        let zip = try ArchiveWriter.makeArchive(Self.entries, sharedAssets: cache, sharedNames: ["icon.png"])
        let reader = try ArchiveReader(bytes: zip, name: "direct.pkpass")
        #expect(reader.unreadableEntries.isEmpty)
        let expected = (Self.entries + [ArchiveEntry(name: "icon.png", bytes: pngLike)])
            .sorted { ArchiveEntry.namePrecedes($0.name, $1.name) }
        #expect(reader.files == expected)
    }

    @Test("unzip -t accepts them; large JSON is deflated, small entries and the signature stored; UTF-8 names kept")
    func unzipAccepts() throws {
        try #require(hasTool("unzip"), "unzip is not installed")
        let dir = try TempDir()
        let cache = try AssetCache([ArchiveEntry(name: "icon.png", bytes: pngLike)])
        let zip = try ArchiveWriter.makeArchive(Self.entries, sharedAssets: cache, sharedNames: ["icon.png"])
        let path = try dir.write(zip, "direct.pkpass")
        let test = try runTool("unzip", ["-t", path])
        #expect(test.status == 0 && test.output.contains("No errors detected"), "\(test.output)")
        let rows = parseUnzipVerbose(try runTool("unzip", ["-v", path]).output)
        #expect(Set(rows.map(\.name)) == Set((Self.entries.map(\.name) + ["icon.png"])))
        let sizes = Dictionary(uniqueKeysWithValues: Self.entries.map { ($0.name, $0.bytes.count) })
        for row in rows {
            let stored =
                row.name.hasSuffix(".png") || row.name == "signature"
                || (sizes[row.name] ?? 0) <= ZipEntryRecord.storedUpTo
            #expect(stored ? row.method == "Stored" : row.method.hasPrefix("Defl"), "\(row.name): \(row.method)")
        }
        let big = try #require(rows.first { $0.name == "big.json" })
        #expect(big.method.hasPrefix("Defl"))
    }

    @Test("text shrinks, including past the largest window; an empty input still gives a valid stream")
    func deflateSizes() throws {
        for entry in Self.entries where entry.name.hasSuffix(".json") && entry.bytes.count > 100 {
            let deflated = try #require(ZipEntryRecord.deflateRaw(entry.bytes))
            #expect(deflated.count * 2 < entry.bytes.count, "\(entry.name): \(deflated.count) of \(entry.bytes.count)")
        }
        #expect(try #require(ZipEntryRecord.deflateRaw([])).count > 0)
    }

    @Test("compressors shared between threads: each input compressed on 8 threads at once gives its own stream")
    func parallelCompression() throws {
        let inputs = (0..<64).map { i in
            utf8(String(repeating: "{\"serialNumber\": \"\(i)\", \"points\": \(i * 7)}\n", count: 20 + i))
        }
        let serial = inputs.map { ZipEntryRecord.deflateRaw($0) }
        let parallel = Mutex<[[UInt8]?]>(Array(repeating: nil, count: inputs.count))
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in stride(from: worker, to: inputs.count, by: 8) {
                let made = ZipEntryRecord.deflateRaw(inputs[index])
                parallel.withLock { $0[index] = made }
            }
        }
        let made = parallel.withLock { $0 }
        #expect(serial.allSatisfy { $0 != nil })
        #expect(made == serial)
        #expect(Set(serial.compactMap { $0 }).count == inputs.count)
    }
}
