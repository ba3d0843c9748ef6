import Foundation
import Testing

@testable import PassArchive

@Suite("AtomicFile")
struct AtomicFileTests {
    private func mode(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("writes the bytes with the given mode and leaves no temporary file", arguments: [0o644, 0o600, 0o640])
    func writes(mode expected: Int) throws {
        let dir = try TempDir()
        let path = dir.path("pass.pkpass")
        try AtomicFile.write(utf8("first"), to: path, mode: UInt32(expected))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("first".utf8))
        #expect(try mode(of: path) == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["pass.pkpass"])
    }

    @Test("replaces an existing file in place")
    func replaces() throws {
        let dir = try TempDir()
        let path = dir.path("pass.pkpass")
        try AtomicFile.write(utf8("old content, longer"), to: path)
        try AtomicFile.write(utf8("new"), to: path, mode: 0o600)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("new".utf8))
        #expect(try mode(of: path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["pass.pkpass"])
    }

    @Test("a missing folder is reported with the path, nothing is left behind")
    func missingFolder() throws {
        let dir = try TempDir()
        let path = dir.path("missing/pass.pkpass")
        let error = #expect(throws: ArchiveError.self) { try AtomicFile.write([1, 2, 3], to: path) }
        #expect(error?.description.contains(dir.path("missing/pass.pkpass.tmp-")) == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
    }

    @Test("a failed rename removes the temporary file and keeps the target")
    func failedRename() throws {
        let dir = try TempDir()
        let target = dir.path("occupied")
        try FileManager.default.createDirectory(atPath: target + "/inner", withIntermediateDirectories: true)
        let error = #expect(throws: ArchiveError.self) { try AtomicFile.write([1, 2, 3], to: target) }
        guard case .fileSystem(let path, _, _)? = error else {
            Issue.record("expected a file-system error, got \(String(describing: error))")
            return
        }
        #expect(path == target)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["occupied"])
    }

    @Test("a non-durable write gives the same file")
    func nonDurable() throws {
        let dir = try TempDir()
        try AtomicFile.write(utf8("batch"), to: dir.path("a.pkpass"), mode: 0o640, durable: false)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("a.pkpass"))) == Data("batch".utf8))
        #expect(try mode(of: dir.path("a.pkpass")) == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["a.pkpass"])
    }

    @Test("several megabytes are written completely")
    func large() throws {
        let dir = try TempDir()
        let bytes = noiseBytes(count: 5 * 1024 * 1024, seed: 2)
        try AtomicFile.write(bytes, to: dir.path("big.bin"))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path("big.bin")))) == bytes)
    }
}
