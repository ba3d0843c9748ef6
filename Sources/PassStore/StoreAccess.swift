import Foundation
import PassMint

/// Opens stores for the CLI commands (`generate --db`, `batch --db`, `update`, `serve`).
package enum StoreAccess {
    /// The SQLite store at `path` (created 0600 when missing), or an environment error naming the file.
    /// - Parameters:
    ///   - serving: the store of a long-running `serve` (checkpoints on a background thread).
    ///   - warn: receives one line per store file that other users can read (default: stderr).
    package static func sqlite(
        path: String, serving: Bool = false, warn: (String) -> Void = StoreAccess.warnOnStandardError
    ) throws(StoreError) -> SQLiteStore {
        let store: SQLiteStore
        do {
            store = try SQLiteStore(path: path, backgroundCheckpoints: serving)
        } catch {
            throw .cannotOpenFile(path: path, underlying: error)
        }
        for exposure in store.exposures { warn("warning: \(exposure)") }
        return store
    }

    /// The store at `location`: a SQLite file (see `sqlite(path:serving:warn:)`) or a PostgreSQL database,
    /// migrated to the current schema either way.
    /// - Throws: `StoreError.cannotOpenFile` or `.cannotOpenServer` naming the file or the server (never a
    ///   password) when the store cannot be opened or reached.
    package static func open(
        _ location: StoreLocation, serving: Bool = false, warn: (String) -> Void = StoreAccess.warnOnStandardError
    ) throws(StoreError) -> any ServiceStore {
        switch location {
        case .sqlite(let path):
            return try sqlite(path: path, serving: serving, warn: warn)
        case .postgres(let url, let poolSize):
            return try postgres(url: url, poolSize: poolSize, serving: serving)
        }
    }

    /// The PostgreSQL store at `url`, migrated to the current schema.
    /// - Parameter serving: the store of a long-running `serve` (it caches hot reads, kept current by
    ///   LISTEN/NOTIFY; one-shot commands do not).
    /// - Throws: `StoreError.cannotOpenServer` naming the server (never a password) when it cannot be reached.
    package static func postgres(url: PostgresURL, poolSize: Int, serving: Bool = false) throws(StoreError)
        -> PostgresStore
    {
        do {
            return try PostgresStore(url: url, poolSize: poolSize, listensForChanges: serving)
        } catch {
            throw .cannotOpenServer(url: url, underlying: error)
        }
    }

    /// Writes `line` to stderr.
    package static func warnOnStandardError(_ line: String) {
        FileHandle.standardError.write(Data("passmint: \(line)\n".utf8))
    }

    /// A sink that stores issued passes in the SQLite store at `path`.
    package static func issuedPassSink(path: String) throws(StoreError) -> any IssuedPassSink {
        StoreSink(store: try sqlite(path: path))
    }

    /// A sink that stores issued passes in the store at `location`.
    package static func issuedPassSink(_ location: StoreLocation) throws(StoreError) -> any IssuedPassSink {
        StoreSink(store: try open(location))
    }
}

/// Adapts a `PassStore` to the pipeline's `IssuedPassSink`.
package struct StoreSink: IssuedPassSink {
    let store: any PassStore & PassLinkStore & BulkChangeStore
    /// The `TemplateReference` text every pass stores as its template; nil keeps the pipeline's folder path.
    var templateReference: String? = nil

    package init(store: any PassStore & PassLinkStore & BulkChangeStore, templateReference: String? = nil) {
        self.store = store
        self.templateReference = templateReference
    }

    package func store(_ passes: [IssuedPassRecord]) throws {
        // In key order (bytewise, as SQLite compares text): a window's rows then meet each index page once, in
        // order, instead of at random.
        // Positions are sorted, not the records: moving a record moves every field it holds.
        let fresh = passes.indices.filter { !passes[$0].replacesStored }.sorted {
            passes[$0].serialNumber.utf8.lexicographicallyPrecedes(passes[$1].serialNumber.utf8)
        }
        let links = fresh.compactMap { index in
            passes[index].link.map { PassLinkGrant(serialNumber: passes[index].serialNumber, key: $0.token.key) }
        }
        try store.insertPasses(fresh.map { storedPass(passes[$0]) }, links: links)
        // New versions keep their token, devices, link and figures; their devices are pushed.
        _ = try store.reissuePasses(passes.filter(\.replacesStored).map(storedPass))
    }

    package func storedPasses(serials: [String]) throws -> [String: StoredIssue] {
        var found: [String: StoredIssue] = [:]
        for pass in try store.passes(serials: serials) {
            var record = pass.record
            if pass.compatiblePass { record[IssueRequest.compatiblePassKey] = "true" }
            found[pass.serialNumber] = StoredIssue(
                authenticationToken: pass.authenticationToken, passTypeIdentifier: pass.passTypeIdentifier,
                record: record, images: pass.images, webServiceURL: pass.webServiceURL, voided: pass.voided,
                sameTemplate: templateReference.map { pass.templatePath == $0 } ?? false)
        }
        return found
    }

    package func holdsPasses(templateDirectory: String) throws -> Bool {
        try !store.passes(after: nil, limit: 1, templatePath: templateReference ?? templateDirectory).isEmpty
    }

    private func storedPass(_ issued: IssuedPassRecord) -> StoredPass {
        // The pipeline marks the fallback with a reserved `@` key; the store keeps it as a field of its own.
        var record = issued.record
        let compatible = record.removeValue(forKey: IssueRequest.compatiblePassKey) == "true"
        return StoredPass(
            serialNumber: issued.serialNumber, passTypeIdentifier: issued.passTypeIdentifier,
            templatePath: templateReference ?? issued.templateDirectory,
            record: record.filter { !$0.key.hasPrefix("@") }, authenticationToken: issued.authenticationToken,
            voided: issued.voided, webServiceURL: issued.webServiceURL, compatiblePass: compatible,
            images: issued.images, googleObjectID: issued.companions[Self.googleCompanion]?["objectId"]?.stringValue)
    }

    /// The name a Google Wallet companion keeps its class and object under (PassGoogle's
    /// `GoogleCompanion.storedName`): a pass issued with one gets its Google object linked, so `serve` keeps it
    /// current.
    static let googleCompanion = "google"
}
