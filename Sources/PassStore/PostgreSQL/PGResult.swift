import Foundation
internal import CPostgreSQL

/// Owner of one `PGresult*` (cleared in deinit). Values are read as text: every statement uses the text format.
final class PGResult {
    private let handle: OpaquePointer

    init(takingOwnershipOf handle: OpaquePointer) {
        self.handle = handle
    }

    deinit { PQclear(handle) }

    var rowCount: Int { Int(PQntuples(handle)) }

    /// Rows changed by an INSERT, UPDATE or DELETE (0 for other statements).
    var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    func isNull(_ row: Int, _ column: Int) -> Bool {
        PQgetisnull(handle, Int32(row), Int32(column)) == 1
    }

    func string(_ row: Int, _ column: Int) -> String {
        String(cString: PQgetvalue(handle, Int32(row), Int32(column)))
    }

    func optionalString(_ row: Int, _ column: Int) -> String? {
        isNull(row, column) ? nil : string(row, column)
    }

    func int64(_ row: Int, _ column: Int) -> Int64 { Int64(string(row, column)) ?? 0 }

    func int(_ row: Int, _ column: Int) -> Int { Int(string(row, column)) ?? 0 }

    /// A `bytea` column (its text form is `\x` and hex digits).
    func bytes(_ row: Int, _ column: Int) -> [UInt8] {
        var digits = Array(string(row, column).utf8.dropFirst(2))
        if digits.count % 2 == 1 { digits.removeLast() }
        func value(_ c: UInt8) -> UInt8 { c <= 57 ? c - 48 : (c | 0x20) - 87 }
        return stride(from: 0, to: digits.count, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
    }

    /// PostgreSQL's text form of a boolean is `t` or `f`.
    func bool(_ row: Int, _ column: Int) -> Bool { string(row, column) == "t" }

    /// Whether the statement succeeded; on failure the server's message and SQLSTATE.
    var failure: (message: String, sqlState: String)? {
        switch PQresultStatus(handle) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return nil
        default:
            let message = String(cString: PQresultErrorMessage(handle))
            let state = pm_pq_sqlstate(handle).map { String(cString: $0) } ?? ""
            return (message.trimmingCharacters(in: .whitespacesAndNewlines), state)
        }
    }
}
