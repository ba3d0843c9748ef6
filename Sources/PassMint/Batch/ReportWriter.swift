import Foundation
import PassArchive
import PassModel

/// Writes a JSON Lines report (one object per input record) to a temporary file, renamed into place when the job
/// ends: `batch`'s and `update --csv`'s.
public final class ReportWriter {
    private let path: String
    private let temporary: String
    private let handle: FileHandle
    private var finished = false

    /// Creates the temporary file next to `path`.
    /// - Throws: `.environment` naming the report file when it cannot be created.
    public init(path: String) throws(PassMintError) {
        self.path = path
        temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw .environment(
                "\(path): cannot create the report file; check that its folder exists and is writable", about: .report)
        }
        self.handle = handle
        TemporaryFiles.register(temporary)
    }

    /// A report never finished (the batch stopped before it could end) leaves no temporary file behind.
    deinit {
        guard !finished else { return }
        try? handle.close()
        unlink(temporary)
        TemporaryFiles.unregister(temporary)
    }

    func append(_ results: [BatchRecordResult]) throws(PassMintError) {
        try append(
            objects: results.map { r in
                var object: [String: JSONValue] = [
                    "line": .integer(Int64(r.line)),
                    "serialNumber": r.serialNumber.map { .string($0) } ?? .null,
                    "file": r.file.map { .string($0) } ?? .null,
                    "status": .string(r.issued ? r.kind.rawValue : "failed"),
                    "error": r.error.map { .string($0) } ?? .null,
                ]
                if r.resumed { object["resumed"] = .bool(true) }
                if let link = r.link { object["link"] = .string(link) }
                for (key, value) in r.companionMembers { object[key] = value }
                return object
            })
    }

    /// Appends one line per object.
    public func append(objects: [[String: JSONValue]]) throws(PassMintError) {
        var out: [UInt8] = []
        for object in objects {
            out += JSONWriter.serialize(.object(object), pretty: false)
            out.append(0x0A)
        }
        do { try handle.write(contentsOf: out) } catch {
            throw .environment("\(path): writing the report failed: \(error.localizedDescription)", about: .report)
        }
    }

    /// Moves the finished report into place.
    public func finish() throws(PassMintError) {
        try? handle.close()
        finished = true
        defer { TemporaryFiles.unregister(temporary) }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .environment(
                "\(path): cannot move the finished report into place; check the folder's permissions", about: .report)
        }
    }
}
