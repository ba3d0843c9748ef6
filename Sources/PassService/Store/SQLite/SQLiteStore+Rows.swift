import Foundation

/// Row mapping and small shared queries of `SQLiteStore`.
extension SQLiteStore {
    static func selectPass(_ db: SQLiteConnection, serial: String) throws -> StoredPass? {
        try db.withStatement("SELECT \(passColumns) FROM passes WHERE serial = ?1") { s in
            try s.bind(1, serial)
            guard try s.step() else { return nil }
            return StoredPass(
                serialNumber: s.string(0), passTypeIdentifier: s.string(1), templatePath: s.string(2),
                record: try decode(s.string(3), serial: serial), authenticationToken: s.string(4), tag: s.int64(5),
                modifiedAt: Date(timeIntervalSince1970: TimeInterval(s.int64(6))), voided: s.int64(7) != 0,
                webServiceURL: s.optionalString(8), compatiblePass: s.int64(9) != 0)
        }
    }

    /// The next value of the update-tag sequence (call inside a write transaction).
    static func nextTag(_ db: SQLiteConnection) throws -> Int64 {
        try db.withStatement("UPDATE meta SET value = value + 1 WHERE key = 'tag' RETURNING value") { s in
            guard try s.step() else {
                throw ServiceError.database(path: db.path, operation: "next tag", message: "meta row 'tag' missing")
            }
            let value = s.int64(0)
            while try s.step() {}
            return value
        }
    }

    static func encode(_ record: [String: String]) throws -> String { try RecordCoding.encode(record) }

    static func decode(_ text: String, serial: String) throws -> [String: String] {
        try RecordCoding.decode(text, serial: serial)
    }

    static func seconds(_ date: Date) -> Int64 { RecordCoding.seconds(date) }

    static func milliseconds(_ date: Date) -> Int64 { RecordCoding.milliseconds(date) }
}
