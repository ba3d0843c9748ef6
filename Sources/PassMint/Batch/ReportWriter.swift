import Foundation
import PassModel

/// Writes the JSON Lines report to a temporary file, renamed into place when the batch ends.
final class ReportWriter {
    private let path: String
    private let temporary: String
    private let handle: FileHandle

    init(path: String) throws(PassMintError) {
        self.path = path
        temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw .environment("--report \(path): cannot create the file; check that its folder exists and is writable")
        }
        self.handle = handle
    }

    func append(_ results: [BatchRecordResult]) throws(PassMintError) {
        var out: [UInt8] = []
        for r in results {
            var object: [String: JSONValue] = [
                "line": .integer(Int64(r.line)),
                "serialNumber": r.serialNumber.map { .string($0) } ?? .null,
                "file": r.file.map { .string($0) } ?? .null,
                "status": .string(r.issued ? "issued" : "failed"),
                "error": r.error.map { .string($0) } ?? .null,
            ]
            if r.resumed { object["resumed"] = .bool(true) }
            out += JSONWriter.serialize(.object(object), pretty: false)
            out.append(0x0A)
        }
        do { try handle.write(contentsOf: out) } catch {
            throw .environment("--report \(path): write failed: \(error.localizedDescription)")
        }
    }

    func finish() throws(PassMintError) {
        try? handle.close()
        guard rename(temporary, path) == 0 else {
            throw .environment("--report \(path): cannot move the finished report into place")
        }
    }
}
