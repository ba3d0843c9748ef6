import PassMint
import PassModel
import PassStore

/// The JSON Lines report of `resign`: `{"serialNumber", "passTypeIdentifier", "status": "resigned"}` per pass,
/// appended after each committed chunk through batch's `ReportWriter` (a temporary file renamed into place at the
/// end). A resumed job lists the passes its interrupted run did with `"resumed": true`, so the finished report
/// has every pass once.
struct ResignReport {
    private let writer: ReportWriter

    init(path: String) throws(OperationError) {
        writer = try OperationError.fromPipeline { () throws(PassMintError) in try ReportWriter(path: path) }
    }

    func append(_ passes: [StoredPass], resumed: Bool = false) throws(OperationError) {
        guard !passes.isEmpty else { return }
        do {
            try write(passes, resumed: resumed)
        } catch {
            throw .pipeline(error)
        }
    }

    private func write(_ passes: [StoredPass], resumed: Bool) throws(PassMintError) {
        try writer.append(
            objects: passes.map { pass in
                var object: [String: JSONValue] = [
                    "serialNumber": .string(pass.serialNumber),
                    "passTypeIdentifier": .string(pass.passTypeIdentifier),
                    "status": .string("resigned"),
                ]
                if resumed { object["resumed"] = .bool(true) }
                return object
            })
    }

    func finish() throws(OperationError) {
        do { try writer.finish() } catch { throw .pipeline(error) }
    }
}
