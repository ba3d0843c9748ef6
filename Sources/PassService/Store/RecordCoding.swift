import Foundation

/// How both stores write records and times: records as sorted-key JSON objects of strings, times as whole
/// seconds (what HTTP dates carry) or milliseconds (outbox schedules).
enum RecordCoding {
    static func encode(_ record: [String: String]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// - Throws: `ServiceError.corruptRecord` naming the serial.
    static func decode(_ text: String, serial: String) throws -> [String: String] {
        do {
            return try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
        } catch {
            throw ServiceError.corruptRecord(serial: serial, message: "\(error)")
        }
    }

    static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
