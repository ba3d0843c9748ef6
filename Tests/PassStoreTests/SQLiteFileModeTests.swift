import Foundation
import Testing
@testable import PassStore
import PassMintTestSupport

@Suite("SQLite store file permissions")
struct SQLiteFileModeTests {
    private func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test("a new store and its -wal and -shm are created 0600, and no warning is raised")
    func createdOwnerOnly() throws {
        let directory = try TempDir()
        let path = directory.path("passes.sqlite")
        let store = try SQLiteStore(path: path)
        try store.insertPasses([samplePass("S1")])
        _ = try store.pass(serial: "S1")
        // The store is still open, so SQLite keeps its write-ahead log and shared-memory files.
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(FileManager.default.fileExists(atPath: file), "\(file) missing")
            #expect(mode(file) == 0o600, "\(file): \(String(mode(file) ?? -1, radix: 8))")
        }
        #expect(store.exposures.isEmpty)
    }

    @Test("an existing store others can read is reported with the fix, and left as it is")
    func existingReadable() throws {
        let directory = try TempDir()
        let path = directory.path("passes.sqlite")
        _ = try SQLiteStore(path: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let store = try SQLiteStore(path: path)
        #expect(store.exposures == [StoreFileExposure(path: path, mode: 0o644)])
        #expect(store.exposures.first?.description.contains("chmod 600 \(path)") == true)
        #expect(mode(path) == 0o644)

        var lines: [String] = []
        _ = try StoreAccess.sqlite(path: path, warn: { lines.append($0) })
        #expect(lines.count >= 1)
        #expect(lines.first?.hasPrefix("warning: store file \(path) is accessible to other users (mode 644)") == true)
    }
}
