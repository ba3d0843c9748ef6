import Foundation
import PassSigning

/// Row mapping and small shared queries of `SQLiteStore`.
extension SQLiteStore {
    static func selectPass(_ db: SQLiteConnection, serial: String) throws -> StoredPass? {
        let found = try db.withStatement("SELECT \(storedPassColumns) FROM passes WHERE serial = ?1") {
            s -> StoredPass? in
            try s.bind(1, serial)
            guard try s.step() else { return nil }
            return StoredPass(
                serialNumber: s.string(0), passTypeIdentifier: s.string(1), templatePath: s.string(2),
                record: try decode(s.string(3), serial: serial), authenticationToken: s.string(4), tag: s.int64(5),
                modifiedAt: Date(timeIntervalSince1970: TimeInterval(s.int64(6))), voided: s.int64(7) != 0,
                webServiceURL: s.optionalString(8), compatiblePass: s.int64(9) != 0,
                personalized: s.optionalString(10) != nil)
        }
        guard var pass = found else { return nil }
        pass.images = try selectImages(db, serial: serial)
        return pass
    }

    static func selectImages(_ db: SQLiteConnection, serial: String) throws -> [String: [UInt8]] {
        try db.withStatement("SELECT path, bytes FROM pass_images WHERE serial = ?1") { s in
            try s.bind(1, serial)
            var images: [String: [UInt8]] = [:]
            while try s.step() { images[s.string(0)] = s.blob(1) }
            return images
        }
    }

    /// Replaces every stored image of `serial` (call inside a write transaction).
    static func replaceImages(_ db: SQLiteConnection, serial: String, images: [String: [UInt8]]) throws {
        try db.withStatement("DELETE FROM pass_images WHERE serial = ?1") { s in
            try s.bind(1, serial)
            try s.run()
        }
        for (path, bytes) in images.sorted(by: { $0.key < $1.key }) {
            try db.withStatement(
                "INSERT INTO pass_images (serial, path, bytes, content_digest) VALUES (?1, ?2, ?3, ?4)"
            ) {
                s in
                try s.bind(1, serial)
                try s.bind(2, path)
                try s.bind(3, blob: bytes)
                try s.bind(4, SHA256Digest.hex(bytes))
                try s.run()
            }
        }
    }

    /// The next value of the update-tag sequence (call inside a write transaction).
    static func nextTag(_ db: SQLiteConnection) throws -> Int64 { try nextTags(db, count: 1).lowerBound }

    /// The next `count` values of the update-tag sequence, taken in one step (call inside a write transaction).
    static func nextTags(_ db: SQLiteConnection, count: Int) throws -> ClosedRange<Int64> {
        try db.withStatement("UPDATE meta SET value = value + ?1 WHERE key = 'tag' RETURNING value") { s in
            try s.bind(1, count)
            guard try s.step() else {
                throw StoreError.database(path: db.path, operation: "next tag", message: "meta row 'tag' missing")
            }
            let last = s.int64(0)
            while try s.step() {}
            return (last - Int64(count) + 1)...last
        }
    }

    static func encode(_ record: [String: String]) throws -> String { try RecordCoding.encode(record) }

    static func decode(_ text: String, serial: String) throws -> [String: String] {
        try RecordCoding.decode(text, serial: serial)
    }

    static func seconds(_ date: Date) -> Int64 { RecordCoding.seconds(date) }

    static func milliseconds(_ date: Date) -> Int64 { RecordCoding.milliseconds(date) }
}
