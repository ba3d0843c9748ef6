import Foundation
import Synchronization
import PassModel

/// How both stores write records and times: records as sorted-key JSON objects of strings, times as whole
/// seconds (what HTTP dates carry) or milliseconds (outbox schedules).
enum RecordCoding {
    /// PassModel's strict writer (sorted keys, compact): JSONSerialization with sorted keys cost about 200 µs per
    /// record, most of what storing a bulk chunk cost.
    static func encode(_ record: [String: String]) throws -> String { text(record) }

    /// `encode(_:)` of each record, in order. Thousands at once (a batch window) are encoded on every core, before
    /// the store's single writer takes them, rather than one after another inside its transaction.
    static func encode(_ records: [[String: String]]) -> [String] {
        let parts = records.count >= 4096 ? min(ProcessInfo.processInfo.activeProcessorCount, 8) : 1
        guard parts > 1 else { return records.map(text) }
        let size = (records.count + parts - 1) / parts
        let encoded = Mutex<[[String]]>(Array(repeating: [], count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let texts = records[min(records.count, part * size)..<min(records.count, (part + 1) * size)].map(text)
            encoded.withLock { $0[part] = texts }
        }
        return encoded.withLock { $0.flatMap { $0 } }
    }

    private static func text(_ record: [String: String]) -> String {
        JSONWriter.string(.object(record.mapValues { .string($0) }), pretty: false)
    }

    /// PassModel's reader, not JSONDecoder: a bulk job reads every pass it looks at, and JSONDecoder took a fifth of
    /// `update --csv`'s time.
    /// - Throws: `StoreError.corruptRecord` naming the serial.
    static func decode(_ text: String, serial: String) throws -> [String: String] {
        let document: JSONDocument
        do { document = try JSONReader.parse(Array(text.utf8), file: "record") } catch {
            throw StoreError.corruptRecord(serial: serial, problem: .notJSON(error))
        }
        guard document.isStrict, case .object(let members) = document.value else {
            throw StoreError.corruptRecord(serial: serial, problem: .notAnObject)
        }
        var record: [String: String] = [:]
        record.reserveCapacity(members.count)
        for (key, value) in members {
            guard case .string(let text) = value else {
                throw StoreError.corruptRecord(serial: serial, problem: .notAString(key: key))
            }
            record[key] = text
        }
        return record
    }

    static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
