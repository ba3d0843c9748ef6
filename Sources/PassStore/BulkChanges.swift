import Foundation

/// One pass's change in a bulk job. Whatever is non-nil replaces the stored value; the pass always gets a new
/// tag and modification second and one outbox row per registered device.
package struct PassChange: Sendable, Equatable {
    package var serialNumber: String
    /// nil: keep the record.
    package var record: [String: String]?
    /// nil: keep (the `template` column; `templates publish` repoints it).
    package var templatePath: String?
    /// nil: keep.
    package var voided: Bool?

    package init(
        serialNumber: String, record: [String: String]? = nil, templatePath: String? = nil, voided: Bool? = nil
    ) {
        self.serialNumber = serialNumber
        self.record = record
        self.templatePath = templatePath
        self.voided = voided
    }

    /// One change per serial, in first-seen order: a later change of the same serial overrides what it sets.
    /// Both stores apply a chunk in one statement or one pass over it, so a serial must occur only once.
    static func coalesced(_ changes: [PassChange]) -> [PassChange] {
        var index: [String: Int] = [:]
        var result: [PassChange] = []
        result.reserveCapacity(changes.count)
        for change in changes {
            guard let at = index[change.serialNumber] else {
                index[change.serialNumber] = result.count
                result.append(change)
                continue
            }
            if let record = change.record { result[at].record = record }
            if let template = change.templatePath { result[at].templatePath = template }
            if let voided = change.voided { result[at].voided = voided }
        }
        return result
    }
}

/// Where a job stands: the store records `position` in the same transaction as the chunk it finishes.
package struct BulkProgress: Sendable, Equatable {
    /// The job's identity (e.g. `update-csv:` and the hash of the file).
    package var job: String
    /// How far the job got, in the job's own unit (a CSV line, a serial's index); only compared by its job.
    package var position: Int64

    package init(job: String, position: Int64) {
        self.job = job
        self.position = position
    }
}

/// What one chunk did.
package struct ChunkOutcome: Sendable, Equatable {
    /// Passes found and changed (a serial no longer stored is skipped, not counted).
    package var passesChanged: Int
    /// Outbox rows written.
    package var pushesQueued: Int

    package init(passesChanged: Int, pushesQueued: Int) {
        self.passesChanged = passesChanged
        self.pushesQueued = pushesQueued
    }
}

/// The shared engine of `update --csv`, `resign` and `templates publish`: changes applied in chunks, each chunk
/// with its outbox rows and its progress in one transaction, so a job resumes after its last committed chunk.
///
/// Pushes follow the rule of `PassStore.updateRecord`: one outbox row per registered device, except devices that
/// already have a fresh unclaimed push of that pass type waiting (within a chunk too): one push makes the phone
/// fetch every changed pass.
package protocol BulkChangeStore: Sendable {
    /// Applies `changes` in one transaction, and when `progress` is given records it in that transaction, so a
    /// job killed between chunks resumes exactly after the last committed one (no change applied twice).
    func applyChanges(_ changes: [PassChange], progress: BulkProgress?) throws -> ChunkOutcome
    /// `applyChanges` that also tells how many outbox rows each changed serial got (a changed serial with none
    /// is there with 0; a serial no longer stored is not), for a report line per input row.
    func applyChangesCountingPushes(_ changes: [PassChange], progress: BulkProgress?) throws -> (
        outcome: ChunkOutcome, pushesBySerial: [String: Int]
    )
    /// `applyChangesCountingPushes` for changes decided from the passes as they are inside the transaction: the
    /// stored passes among `serials` are read with their rows locked and handed to `decide`, whose changes (and
    /// `progress`) are then written in the same transaction. So a change computed from a stored value (an amount
    /// added) never overwrites a change another process made meanwhile.
    /// - Throws: whatever `decide` throws (nothing is written then), or the store's errors.
    func applyChanges(
        lockingSerials serials: [String], progress: BulkProgress?, _ decide: ([StoredPass]) throws -> [PassChange]
    ) throws -> (outcome: ChunkOutcome, pushesBySerial: [String: Int])
    /// The position last recorded for `job`, nil when the job never committed a chunk.
    func bulkPosition(job: String) throws -> Int64?
    /// Up to `limit` stored passes with serial > `after` in serial order (all templates when `templatePath` is nil).
    func passes(after serial: String?, limit: Int, templatePath: String?) throws -> [StoredPass]
    /// The stored passes among `serials` (any order; unknown serials are left out), images included: one query
    /// for a whole chunk of CSV rows instead of one per row.
    func passes(serials: [String]) throws -> [StoredPass]
}

extension BulkChangeStore {
    package func applyChanges(_ changes: [PassChange], progress: BulkProgress?) throws -> ChunkOutcome {
        try applyChangesCountingPushes(changes, progress: progress).outcome
    }
}

/// How many changes a bulk job puts in one transaction by default: large enough that the commit cost is spread,
/// small enough that a killed job loses little and a concurrent `serve` waits briefly for the write lock.
package let defaultBulkChunkSize = 500
