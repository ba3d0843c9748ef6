import Foundation
import PassMint

/// Opens stores for the CLI commands (`generate --db`, `batch --db`, `update`, `serve`).
public enum StoreAccess {
    /// The SQLite store at `path` (created 0600 when missing), or an environment error naming the file.
    /// - Parameters:
    ///   - serving: the store of a long-running `serve` (checkpoints on a background thread).
    ///   - warn: receives one line per store file that other users can read (default: stderr).
    public static func sqlite(
        path: String, serving: Bool = false, warn: (String) -> Void = StoreAccess.warnOnStandardError
    ) throws(PassMintError) -> SQLiteStore {
        let store: SQLiteStore
        do {
            store = try SQLiteStore(path: path, backgroundCheckpoints: serving)
        } catch {
            throw .environment("--db \(path): cannot open the store: \(error)")
        }
        for exposure in store.exposures { warn("warning: \(exposure)") }
        return store
    }

    /// Writes `line` to stderr.
    public static func warnOnStandardError(_ line: String) {
        FileHandle.standardError.write(Data("passmint: \(line)\n".utf8))
    }

    /// A sink that stores issued passes in the SQLite store at `path`.
    public static func issuedPassSink(path: String) throws(PassMintError) -> any IssuedPassSink {
        StoreSink(store: try sqlite(path: path))
    }
}

/// Record keys PassMint keeps next to the template fields; never template fields themselves.
enum StoredRecordKeys {
    /// The `webServiceURL` the pass was issued with.
    static let webServiceURL = "@webServiceURL"

    /// Splits a stored record into template fields and the web service URL.
    static func split(_ record: [String: String]) -> (fields: [String: String], webServiceURL: String?) {
        var fields = record
        let url = fields.removeValue(forKey: webServiceURL)
        return (fields.filter { !$0.key.hasPrefix("@") }, url)
    }
}

/// Adapts a `PassStore` to the pipeline's `IssuedPassSink`.
struct StoreSink: IssuedPassSink {
    let store: any PassStore

    func store(_ passes: [IssuedPassRecord]) throws {
        try store.insertPasses(
            passes.map { issued in
                var record = issued.record
                if let url = issued.webServiceURL { record[StoredRecordKeys.webServiceURL] = url }
                return StoredPass(
                    serialNumber: issued.serialNumber, passTypeIdentifier: issued.passTypeIdentifier,
                    templatePath: issued.templateDirectory, record: record,
                    authenticationToken: issued.authenticationToken, images: issued.images)
            })
    }
}
