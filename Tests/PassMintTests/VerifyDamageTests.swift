import Foundation
import PassArchive
import Testing

@testable import PassMint

/// Damaged, truncated and garbage input: always a report, never a crash.
@Suite("verify: damaged input")
struct VerifyDamageTests {
    typealias Support = VerifyTestSupport

    @Test("empty, garbage and truncated archives are archive.unreadable")
    func unreadable() throws {
        let good = try Support.makePass(Support.goodFiles())
        let inputs: [(String, [UInt8])] = [
            ("empty", []),
            ("garbage", Array("this is not a zip file at all".utf8)),
            ("truncated", Array(good.prefix(good.count / 2))),
            ("tail cut", Array(good.dropLast(10))),
        ]
        for (label, bytes) in inputs {
            let report = PassVerifier.verify(archive: bytes, name: label)
            #expect(report.codes == ["archive.unreadable"], "\(label): \(report.codes)")
            #expect(!report.valid)
        }
    }

    @Test("every single-byte corruption gives a report, never a crash")
    func corruption() throws {
        let good = try Support.makePass(Support.goodFiles())
        // A spread of positions (headers, data, central directory) rather than every byte: CPU is shared.
        for position in stride(from: 0, to: good.count, by: max(1, good.count / 60)) {
            var bytes = good
            bytes[position] ^= 0x5A
            let report = PassVerifier.verify(archive: bytes, name: "corrupt-\(position)")
            #expect(report.file == "corrupt-\(position)")
        }
    }

    @Test("a data corruption inside an entry is reported, the rest of the pass still checked")
    func entryCorruption() throws {
        let files =
            Support.goodFiles() + [
                ArchiveEntry(name: "thumbnail.png", bytes: Support.png(90, 90) + [UInt8](repeating: 7, count: 4000))
            ]
        var bytes = try Support.makePass(files)
        // Find the thumbnail's data (stored, PNG are not deflated) and flip a byte in its padding.
        let marker: [UInt8] = [UInt8](repeating: 7, count: 64)
        let index = try #require((0..<(bytes.count - 64)).first { Array(bytes[$0..<($0 + 64)]) == marker })
        bytes[index + 100] = 8
        let report = PassVerifier.verify(archive: bytes, name: "crc.pkpass")
        #expect(report.codes.contains("archive.unreadable") || report.codes.contains("manifest.hash-mismatch"))
        #expect(report.style == "generic")
    }

    @Test("a file that does not exist, and a directory, give a report")
    func missingFile() throws {
        let missing = PassVerifier.verify(file: "/nonexistent/passmint/x.pkpass")
        #expect(missing.count == 1)
        #expect(missing.first?.codes == ["archive.unreadable"])
        try withTemporaryDirectory { directory in
            #expect(PassVerifier.verify(file: directory).first?.codes == ["archive.unreadable"])
        }
    }

    @Test("bundles: per-pass reports, more than 10 passes, other entries, duplicate serials, directory scan")
    func bundles() throws {
        let pass = try Support.makePass(Support.goodFiles())
        let two = try PassBundle.make([("a.pkpass", pass), ("b.pkpass", pass)])
        let reports = PassVerifier.verify(bytes: two, name: "two.pkpasses")
        #expect(reports.map(\.file) == ["two.pkpasses", "two.pkpasses:a.pkpass", "two.pkpasses:b.pkpass"])
        #expect(reports[0].codes == ["bundle.duplicate-serial"])

        let eleven =
            (0..<11).map { ArchiveEntry(name: "p\($0).pkpass", bytes: pass) }
            + [ArchiveEntry(name: "readme.txt", bytes: Array("hi".utf8))]
        let big = PassVerifier.verify(bytes: try ArchiveWriter.makeArchive(eleven), name: "big.pkpasses")
        #expect(big.count == 12)
        #expect(big[0].codes.contains("bundle.too-many-passes"))
        #expect(big[0].codes.contains("bundle.unexpected-entry"))

        let single = PassVerifier.verify(bytes: try PassBundle.make([("only.pkpass", pass)]), name: "one.pkpasses")
        #expect(single.map(\.file) == ["one.pkpasses:only.pkpass"])
        #expect(single[0].valid)

        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: directory + "/sub/x.pkpass", contents: Data(pass)))
            #expect(FileManager.default.createFile(atPath: directory + "/y.pkpasses", contents: Data(two)))
            #expect(FileManager.default.createFile(atPath: directory + "/z.txt", contents: Data()))
            #expect(PassVerifier.passFiles(in: directory) == [directory + "/sub/x.pkpass", directory + "/y.pkpasses"])
        }
    }
}
