import Foundation
import PassMint

/// Opens stores for the CLI commands that issue passes (`generate --db`, `batch --db`).
public enum StoreAccess {
    /// A sink that stores issued passes in the SQLite store at `path` (created when missing).
    public static func issuedPassSink(path: String) throws(PassMintError) -> any IssuedPassSink {
        do {
            return StoreSink(store: try SQLiteStore(path: path))
        } catch {
            throw .environment("--db \(path): cannot open the store: \(error)")
        }
    }
}

/// Adapts a `PassStore` to the pipeline's `IssuedPassSink`.
struct StoreSink: IssuedPassSink {
    let store: any PassStore

    func store(_ passes: [IssuedPassRecord]) throws {
        try store.insertPasses(
            passes.map {
                StoredPass(
                    serialNumber: $0.serialNumber, passTypeIdentifier: $0.passTypeIdentifier,
                    templatePath: $0.templateDirectory, record: $0.record, authenticationToken: $0.authenticationToken,
                    tag: 0, modifiedAt: Date(), voided: false)
            })
    }
}
