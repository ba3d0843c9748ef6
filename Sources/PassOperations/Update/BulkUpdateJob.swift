import PassMint
import PassStore
import PassTemplates

/// `update --csv` and `POST /admin/v1/updates` as a job of the engine: chunks of rows (those an earlier run of the
/// job committed skipped), each decided against its passes as they are inside the chunk's transaction and stored
/// with its outbox rows and the job's position in that transaction.
package struct BulkUpdateJob: ResumableJob {
    package typealias Tally = BulkUpdater.Summary

    /// One chunk of rows, and what reading it passed over.
    package struct Chunk {
        var rows: [BulkRow]
        /// Rows read for this chunk, the skipped ones included.
        var read: Int
        /// Rows skipped because an earlier run of the job committed them.
        var skipped: Int
    }

    /// What committing a chunk did.
    package struct Committed: CommittedChunk {
        package var outcomes: [BulkUpdater.RowOutcome]
        var rowsRead: Int
        var rowsSkipped: Int
        var pushesQueued: Int
        /// The position committed with the chunk (nil for a chunk of skipped rows only).
        var position: Int64?
    }

    private let rows: any BulkRowSource
    private let options: BulkUpdater.Options
    private let store: any PassStore & BulkChangeStore
    private let checker: any BulkRecordChecker
    /// The position an earlier run committed; rows up to it are skipped.
    private let resumedFrom: Int64?
    private var renders = TierRenderCheck()
    package private(set) var exhausted = false

    init(
        rows: any BulkRowSource, options: BulkUpdater.Options, store: any PassStore & BulkChangeStore,
        checker: any BulkRecordChecker, resumedFrom: Int64?
    ) {
        self.rows = rows
        self.options = options
        self.store = store
        self.checker = checker
        self.resumedFrom = resumedFrom
    }

    package static func reportFailed(_ error: PassMintError) -> OperationError { .pipeline(error) }

    package mutating func nextChunk() throws(OperationError) -> Chunk? {
        var chunk = Chunk(rows: [], read: 0, skipped: 0)
        while chunk.rows.count < options.chunkSize {
            guard let row = try rows.nextRow() else {
                exhausted = true
                break
            }
            chunk.read += 1
            if let done = resumedFrom, Int64(row.line) <= done {
                chunk.skipped += 1
                continue
            }
            chunk.rows.append(row)
        }
        return chunk.read == 0 ? nil : chunk
    }

    package mutating func commit(_ chunk: Chunk) throws(OperationError) -> Committed {
        var committed = Committed(
            outcomes: [], rowsRead: chunk.read, rowsSkipped: chunk.skipped, pushesQueued: 0, position: nil)
        guard let lastLine = chunk.rows.last?.line else { return committed }
        let window = chunk.rows
        let position = BulkProgress(job: options.job, position: Int64(lastLine))
        let serials = Array(Set(window.filter { $0.problem == nil && !$0.serialNumber.isEmpty }.map(\.serialNumber)))
        var outcomes: (rows: [BulkUpdater.RowOutcome], changes: [PassChange]) = ([], [])
        var renders = self.renders
        let (stored, pushesBySerial) = try Self.storeCall(.storingChanges(upToLine: lastLine)) {
            try store.applyChanges(lockingSerials: serials, progress: position) { passes in
                outcomes = process(window, passes: passes, renders: &renders)
                return outcomes.changes
            }
        }
        self.renders = renders
        var counted = Set<String>()
        for index in outcomes.rows.indices where outcomes.rows[index].status == .changed {
            let serial = outcomes.rows[index].serialNumber
            // A serial changed by two rows of the chunk was applied once; its pushes go to its first row.
            if counted.insert(serial).inserted { outcomes.rows[index].pushes = pushesBySerial[serial] ?? 0 }
        }
        committed.outcomes = outcomes.rows
        committed.pushesQueued = stored.pushesQueued
        committed.position = position.position
        return committed
    }

    /// One window's rows checked against `found` (the stored passes among the window's serials, as they are inside
    /// the chunk's transaction), in input order, and the changes they make.
    private func process(_ window: [BulkRow], passes found: [StoredPass], renders: inout TierRenderCheck) -> (
        rows: [BulkUpdater.RowOutcome], changes: [PassChange]
    ) {
        var current = Dictionary(found.map { ($0.serialNumber, $0) }, uniquingKeysWith: { first, _ in first })
        var outcomes: [BulkUpdater.RowOutcome] = []
        var changed: [String: [String: String]] = [:]
        var order: [String] = []
        outcomes.reserveCapacity(window.count)
        for row in window {
            var outcome = BulkUpdater.RowOutcome(
                line: row.line, serialNumber: row.serialNumber, status: .failed, pushes: 0, problem: row.problem,
                column: row.column)
            defer { outcomes.append(outcome) }
            guard row.problem == nil else { continue }
            guard !row.serialNumber.isEmpty else {
                outcome.problem = .noSerial
                outcome.column = bulkSerialColumn
                continue
            }
            guard var pass = current[row.serialNumber] else {
                outcome.problem = .unknownSerial(row.serialNumber)
                outcome.column = bulkSerialColumn
                continue
            }
            let record: [String: String]
            do {
                record = try checker.validate(pass, change: RecordChange(values: row.values, amounts: row.amounts))
            } catch {
                outcome.problem = .refused(error)
                outcome.column = Self.column(of: error, in: row)
                continue
            }
            guard record != pass.record else {
                outcome.status = .unchanged
                continue
            }
            pass.record = record
            do {
                try renders.check(checker.renderKey(pass)) { () throws(OperationError) in try checker.renderCheck(pass)
                }
            } catch {
                outcome.problem = .unrenderable(error)
                outcome.column = Self.column(of: error, in: row)
                continue
            }
            current[row.serialNumber] = pass
            if changed.updateValue(record, forKey: row.serialNumber) == nil { order.append(row.serialNumber) }
            outcome.status = .changed
            outcome.problem = nil
        }
        return (outcomes, order.map { PassChange(serialNumber: $0, record: changed[$0]) })
    }

    /// The column a refused change is about: the field the refusal names, as the row wrote it (`add:FIELD` when
    /// the row only adds to it, or when the refusal is about the amount).
    static func column(of error: OperationError, in row: BulkRow) -> String? {
        let refusal: OperationError.ChangeRefusal
        switch error {
        case .change(let refused): refusal = refused
        case .pipeline(.template(let template)): refusal = .value(template)
        case .update(_, let inner): return column(of: inner, in: row)
        default: return nil
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

    static func storeCall<T>(_ step: OperationError.StoreStep, _ body: () throws -> T) throws(OperationError) -> T {
        do { return try body() } catch {
            throw .store(step, underlying: error)
        }
    }
}
