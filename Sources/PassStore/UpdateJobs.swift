import Foundation

/// A bulk update sent to `POST /admin/v1/updates`, as the store keeps it so that every `serve` instance on the
/// database answers `GET /admin/v1/updates/{id}`.
package struct UpdateJobStatus: Sendable, Equatable {
    /// Where the job is.
    package enum State: String, Sendable, Equatable {
        /// Accepted, waiting for its instance's job thread.
        case queued
        case running
        /// Every row was read; failed rows are listed, the others stored.
        case done
        /// Stopped by a problem of the input as a whole (no usable header) or of the store; `message` says which.
        case failed
    }

    /// One failed row.
    package struct Failure: Sendable, Equatable, Codable {
        package var line: Int
        /// The CSV column or JSON key at fault, when one is.
        package var column: String?
        package var message: String

        package init(line: Int, column: String?, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }
    }

    package var id: String
    package var state: State
    package var rows: Int
    package var changed: Int
    package var unchanged: Int
    package var failed: Int
    package var pushesQueued: Int
    /// The first failed rows, at most `BulkUpdater.Summary.failuresKept`.
    package var failures: [Failure]
    /// Why a `failed` job stopped.
    package var message: String?
    package var createdAt: Date
    package var updatedAt: Date

    package init(
        id: String, state: State, rows: Int = 0, changed: Int = 0, unchanged: Int = 0, failed: Int = 0,
        pushesQueued: Int = 0, failures: [Failure] = [], message: String? = nil, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.state = state
        self.rows = rows
        self.changed = changed
        self.unchanged = unchanged
        self.failed = failed
        self.pushesQueued = pushesQueued
        self.failures = failures
        self.message = message
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// Where update jobs' status lives (the `update_jobs` table of migration 7).
package protocol UpdateJobStore: Sendable {
    /// Inserts the job or replaces its stored status.
    func saveUpdateJob(_ job: UpdateJobStatus) throws
    /// The job's status, nil for an unknown id.
    func updateJob(id: String) throws -> UpdateJobStatus?
}

enum UpdateJobCoding {
    static func encode(_ failures: [UpdateJobStatus.Failure]) throws -> String {
        String(decoding: try JSONEncoder().encode(failures), as: UTF8.self)
    }

    static func decode(_ text: String, id: String) throws -> [UpdateJobStatus.Failure] {
        do {
            return try JSONDecoder().decode([UpdateJobStatus.Failure].self, from: Data(text.utf8))
        } catch {
            throw StoreError.corruptUpdateJob(id: id, underlying: error)
        }
    }
}
