import Foundation
import PassArchive
import PassMint
import PassModel

/// The JSON Lines report of `resign`: `{"serialNumber", "passTypeIdentifier", "status": "resigned"}` per pass,
/// appended after each committed chunk to a temporary file that is renamed into place at the end. A resumed job
/// lists the passes its interrupted run did with `"resumed": true`, so the finished report has every pass once.
final class ResignReport {
    private let path: String
    private let temporary: String
    private let handle: FileHandle
    private var finished = false

    init(path: String) throws(PassMintError) {
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

    /// A report never finished (the job failed) leaves no temporary file behind.
    deinit {
        guard !finished else { return }
        try? handle.close()
        unlink(temporary)
        TemporaryFiles.unregister(temporary)
    }

    func append(_ passes: [StoredPass], resumed: Bool = false) throws(PassMintError) {
        guard !passes.isEmpty else { return }
        var out: [UInt8] = []
        for pass in passes {
            var object: [String: JSONValue] = [
                "serialNumber": .string(pass.serialNumber),
                "passTypeIdentifier": .string(pass.passTypeIdentifier),
                "status": .string("resigned"),
            ]
            if resumed { object["resumed"] = .bool(true) }
            out += JSONWriter.serialize(.object(object), pretty: false)
            out.append(0x0A)
        }
        do { try handle.write(contentsOf: out) } catch {
            throw .environment("\(path): writing the report failed: \(error.localizedDescription)", about: .report)
        }
    }

    func finish() throws(PassMintError) {
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
