import Dispatch
import Foundation
import PassMint
import PassModel
import PassTemplates
import PassSigning
import PassStore

/// What a bulk update checks a changed row with: the template's validation, and a render of the new pass.
package protocol BulkRecordChecker: Sendable {
    /// The complete new record of `pass` with `change` applied (values set, amounts added to the stored ones), or
    /// the error that refuses it.
    func validate(_ pass: StoredPass, change: RecordChange) throws -> [String: String]
    /// Passes with the same key render alike as far as a refusal goes (same template, same tier): one successful
    /// render stands for all of them.
    func renderKey(_ pass: StoredPass) -> String
    /// Renders and signs `pass` once; throws what would stop it reaching a phone.
    func renderCheck(_ pass: StoredPass) throws
}

extension TemplateRenderer: BulkRecordChecker {
    package func validate(_ pass: StoredPass, change: RecordChange) throws -> [String: String] {
        try validate(pass, change: change, allowImages: false)
    }

    package func renderKey(_ pass: StoredPass) -> String {
        let tierField = (try? issuer(for: pass.templatePath).template.tierField) ?? nil
        return pass.templatePath + "\u{0}" + (tierField.flatMap { pass.record[$0] } ?? "")
    }

    package func renderCheck(_ pass: StoredPass) throws {
        _ = try issue(pass)
    }
}

/// `update --csv` and `POST /admin/v1/updates`: one change per input row, validated against each pass's template,
/// applied through the bulk engine in chunks whose outbox rows and progress commit together.
///
/// - A row whose resolved record equals the stored one is *unchanged*: it goes to no chunk, bumps no tag and
///   queues no push. So a rerun of a finished (or killed) job pushes nothing for the rows already applied.
/// - A chunk's passes are read with their rows locked and its changes written in the same transaction, so an
///   amount (`add:points`) adds to the value stored at that moment and no concurrent change is overwritten.
/// - Every changed row is validated (`TemplateRenderer.validate`: unknown fields, types, enum values); the first
///   changed pass of each template and tier combination is also rendered and signed, so a value that makes an
///   unsignable pass fails its row before any phone sees it, without signing 100,000 passes.
/// - A bad row fails alone (reported with its line, and its column when one is at fault); the job goes on.
/// - With `resume`, rows up to the position the job last committed are skipped: the job's identity is the
///   input's content hash, recorded in the store that holds the passes.
package final class BulkUpdater {
    /// How a run goes.
    package struct Options: Sendable {
        /// The job's identity in the store's progress table (see `BulkUpdater.jobIdentity(csvPath:)`).
        package var job: String
        /// Skip the rows the job already committed.
        package var resume: Bool
        /// Rows per chunk (a chunk holds at most this many changes).
        package var chunkSize: Int

        package init(job: String, resume: Bool = false, chunkSize: Int = defaultBulkChunkSize) {
            self.job = job
            self.resume = resume
            self.chunkSize = max(1, chunkSize)
        }
    }

    /// What became of one row.
    package enum RowStatus: String, Sendable {
        case changed, unchanged, failed
    }

    /// One row's result, as the report line shows it.
    package struct RowOutcome: Sendable, Equatable {
        package var line: Int
        package var serialNumber: String
        package var status: RowStatus
        /// Outbox rows the change queued (0 when a pending push already covers the device).
        package var pushes: Int
        package var error: String?
        /// The column (CSV) or key (JSON Lines) at fault, when one is.
        package var column: String?

        /// The report's JSON Lines object: line, serialNumber, status, pushes, error (and column).
        package var reportObject: [String: JSONValue] {
            var object: [String: JSONValue] = [
                "line": .integer(Int64(line)), "serialNumber": serialNumber.isEmpty ? .null : .string(serialNumber),
                "status": .string(status.rawValue), "pushes": .integer(Int64(pushes)),
                "error": error.map { .string($0) } ?? .null,
            ]
            if let column { object["column"] = .string(column) }
            return object
        }
    }

    /// Totals of a run (so far, when handed to `progress`).
    package struct Summary: Sendable {
        /// Rows read in this run (skipped ones included).
        package var rows = 0
        package var changed = 0
        package var unchanged = 0
        package var failed = 0
        /// Rows skipped because an earlier run of the job committed them (`resume`).
        package var skipped = 0
        package var pushesQueued = 0
        package var elapsed = 0.0
        /// Stopped at a chunk boundary because `shouldStop` said so.
        package var interrupted = false
        /// The job's committed position: the last input line done.
        package var position: Int64 = 0
        /// Where an earlier run had got to (`resume`), nil when it started at the beginning.
        package var resumedFrom: Int64?
        /// The first failed rows, at most `failuresKept`.
        package var failures: [RowOutcome] = []

        /// How many failed rows a summary keeps.
        package static let failuresKept = 100
    }

    private let store: any PassStore & BulkChangeStore
    private let checker: any BulkRecordChecker

    package init(store: any PassStore & BulkChangeStore, checker: any BulkRecordChecker) {
        self.store = store
        self.checker = checker
    }

    /// The job identity of a CSV file: `update-csv:` and the SHA-256 of its bytes, so the same content resumes
    /// the same job whatever the file is called, and an edited file starts a new one.
    /// - Throws: `.pipeline(.csv(…))` or `.csvUnreadable` naming the file when it cannot be read.
    package static func jobIdentity(csvPath: String) throws(OperationError) -> String {
        guard let handle = FileHandle(forReadingAtPath: csvPath) else {
            throw .pipeline(.csv(path: csvPath, .cannotOpen))
        }
        defer { try? handle.close() }
        // OpenSSL failing to digest is the machine's problem (out of memory), as `PassMintError.signing` says.
        var digest: SHA256Digest
        do { digest = try SHA256Digest() } catch { throw .pipeline(.signing(error)) }
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch {
                throw .csvUnreadable(path: csvPath, underlying: error)
            }
            guard let chunk, !chunk.isEmpty else { break }
            do { try digest.update(chunk) } catch { throw .pipeline(.signing(error)) }
        }
        do { return "update-csv:" + (try digest.finish()) } catch { throw .pipeline(.signing(error)) }
    }

    /// Runs the job over `rows`.
    /// - Parameters:
    ///   - reportPath: a JSON Lines report (`RowOutcome.reportObject` per row of this run), written to a temporary
    ///     name and renamed into place at the end.
    ///   - shouldStop: asked after each committed chunk; true ends the run there (`Summary.interrupted`).
    ///   - progress: called after each committed chunk with the totals so far.
    /// - Throws: `.environment` when the store cannot be read or written (the chunks committed so far stay, and a
    ///   rerun with `resume` continues after them), or the report cannot be written; whatever reading the rows
    ///   throws. Bad rows are reported, not thrown.
    package func run(
        _ rows: any BulkRowSource, options: Options, reportPath: String? = nil, shouldStop: () -> Bool = { false },
        progress: (Summary) -> Void = { _ in }
    ) throws(OperationError) -> Summary {
        let start = DispatchTime.now()
        var summary = Summary()
        let report = try OperationError.fromPipeline { () throws(PassMintError) in
            try reportPath.map { path throws(PassMintError) in try ReportWriter(path: path) }
        }
        if options.resume {
            summary.resumedFrom = try storeCall(.readingBulkProgress) {
                try store.bulkPosition(job: options.job)
            }
            summary.position = summary.resumedFrom ?? 0
        }
        var renderedKeys = Set<String>()
        var exhausted = false
        while !exhausted {
            var window: [BulkRow] = []
            while window.count < options.chunkSize {
                guard let row = try rows.nextRow() else {
                    exhausted = true
                    break
                }
                summary.rows += 1
                if let done = summary.resumedFrom, Int64(row.line) <= done {
                    summary.skipped += 1
                    continue
                }
                window.append(row)
            }
            guard let lastLine = window.last?.line else { break }
            let position = BulkProgress(job: options.job, position: Int64(lastLine))
            let serials = Array(
                Set(window.filter { $0.error == nil && !$0.serialNumber.isEmpty }.map(\.serialNumber)))
            var outcomes: (rows: [RowOutcome], changes: [PassChange]) = ([], [])
            let (chunk, pushesBySerial) = try storeCall(.storingChanges(upToLine: lastLine)) {
                try store.applyChanges(lockingSerials: serials, progress: position) { passes in
                    outcomes = process(window, passes: passes, renderedKeys: &renderedKeys)
                    return outcomes.changes
                }
            }
            var counted = Set<String>()
            for index in outcomes.rows.indices where outcomes.rows[index].status == .changed {
                let serial = outcomes.rows[index].serialNumber
                // A serial changed by two rows of the chunk was applied once; its pushes go to its first row.
                if counted.insert(serial).inserted { outcomes.rows[index].pushes = pushesBySerial[serial] ?? 0 }
            }
            summary.pushesQueued += chunk.pushesQueued
            summary.position = position.position
            for outcome in outcomes.rows {
                switch outcome.status {
                case .changed: summary.changed += 1
                case .unchanged: summary.unchanged += 1
                case .failed:
                    summary.failed += 1
                    if summary.failures.count < Summary.failuresKept { summary.failures.append(outcome) }
                }
            }
            try OperationError.fromPipeline { () throws(PassMintError) in
                try report?.append(objects: outcomes.rows.map(\.reportObject))
            }
            summary.elapsed = Self.seconds(since: start)
            progress(summary)
            if !exhausted, shouldStop() {
                summary.interrupted = true
                break
            }
        }
        try OperationError.fromPipeline { () throws(PassMintError) in try report?.finish() }
        summary.elapsed = Self.seconds(since: start)
        return summary
    }

    /// One window's rows checked against `found` (the stored passes among the window's serials, as they are inside
    /// the chunk's transaction), in input order, and the changes they make.
    private func process(_ window: [BulkRow], passes found: [StoredPass], renderedKeys: inout Set<String>) -> (
        rows: [RowOutcome], changes: [PassChange]
    ) {
        var current = Dictionary(found.map { ($0.serialNumber, $0) }, uniquingKeysWith: { first, _ in first })
        var outcomes: [RowOutcome] = []
        var changed: [String: [String: String]] = [:]
        var order: [String] = []
        outcomes.reserveCapacity(window.count)
        for row in window {
            var outcome = RowOutcome(
                line: row.line, serialNumber: row.serialNumber, status: .failed, pushes: 0, error: row.error,
                column: row.column)
            defer { outcomes.append(outcome) }
            guard row.error == nil else { continue }
            guard !row.serialNumber.isEmpty else {
                outcome.error = "the row has no \(bulkSerialColumn); every row must name the pass it changes"
                outcome.column = bulkSerialColumn
                continue
            }
            guard var pass = current[row.serialNumber] else {
                outcome.error = "no stored pass has serial number \(row.serialNumber); check the serial and the store"
                outcome.column = bulkSerialColumn
                continue
            }
            let record: [String: String]
            do {
                record = try checker.validate(pass, change: RecordChange(values: row.values, amounts: row.amounts))
            } catch {
                outcome.error = Self.words(error)
                outcome.column = Self.column(of: error, in: row)
                continue
            }
            guard record != pass.record else {
                outcome.status = .unchanged
                continue
            }
            pass.record = record
            let key = checker.renderKey(pass)
            if !renderedKeys.contains(key) {
                do { try checker.renderCheck(pass) } catch {
                    outcome.error = "the changed pass cannot be rendered: \(error)"
                    outcome.column = Self.column(of: error, in: row)
                    continue
                }
                renderedKeys.insert(key)
            }
            current[row.serialNumber] = pass
            if changed.updateValue(record, forKey: row.serialNumber) == nil { order.append(row.serialNumber) }
            outcome.status = .changed
            outcome.error = nil
        }
        return (outcomes, order.map { PassChange(serialNumber: $0, record: changed[$0]) })
    }

    /// A refusal as a report line says it: "+10" shows both ways of writing it in a row.
    static func words(_ error: any Error) -> String {
        if case .change(.value(.signedValue(let field, let value, _)))? = error as? OperationError {
            let number = String(value.drop { $0 == " " || $0 == "+" })
            return "\(field) \"\(value)\" would set \(field) to \(number), not add \(number) to it; give \(number) "
                + "under \(field) to set it, or \(number) under \(bulkAmountPrefix)\(field) (CSV) or "
                + #"{"add": \#(number)} (JSON Lines) to add it"#
        }
        return "\(error)"
    }

    /// The column a refused change is about: the field the refusal names, as the row wrote it (`add:FIELD` when
    /// the row only adds to it, or when the refusal is about the amount).
    static func column(of error: any Error, in row: BulkRow) -> String? {
        let refusal: OperationError.ChangeRefusal
        switch error as? OperationError {
        case .change(let refused)?: refusal = refused
        case .pipeline(.template(let template))?: refusal = .value(template)
        default:
            guard let template = error as? TemplateError else { return nil }
            refusal = .value(template)
        }
        guard let field = refusal.field else { return nil }
        let amountOnly = row.values[field] == nil && row.amounts[field] != nil
        switch refusal {
        case .value(.outOfRange), .value(.notANumberField):
            return row.amounts[field] != nil ? bulkAmountPrefix + field : field
        case .value(.controlCharacter), .value(.unknownImageSlot), .value(.unknownRecordKey):
            return field
        default:
            return amountOnly ? bulkAmountPrefix + field : field
        }
    }

    private func storeCall<T>(_ step: OperationError.StoreStep, _ body: () throws -> T) throws(OperationError) -> T {
        do { return try body() } catch {
            throw .store(step, underlying: error)
        }
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}
