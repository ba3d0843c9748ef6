import Foundation
import Synchronization
@testable import PassStore

/// An in-memory `PushOutbox` double with the same lease semantics as the store, recording every call.
final class PushMemoryOutbox: PushOutbox {
    struct Retry: Equatable {
        let id: Int64
        let at: Date
        let recordedAt: Date
        let reason: String
    }

    struct Drop: Equatable {
        let id: Int64
        let pushToken: String
        let reason: String
    }

    private struct Row {
        var job: PushJob
        var dueAt: Date
        var claimedUntil: Date
    }

    private struct State {
        var nextID: Int64 = 1
        var rows: [Int64: Row] = [:]
        var completed: [Int64] = []
        var dropped: [Drop] = []
        var retried: [Retry] = []
        var abandoned: [(Int64, String)] = []
        var claims = 0
    }

    private let state = Mutex(State())
    /// The time retries are recorded at (the pusher's clock in tests that move it by hand).
    private let clock: @Sendable () -> Date

    init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    /// Queues one push per token, due now; returns the row ids.
    @discardableResult
    func enqueue(_ tokens: [String], passType: String = PushTestTools.passType) -> [Int64] {
        state.withLock { state in
            tokens.map { token in
                let id = state.nextID
                state.nextID += 1
                let job = PushJob(id: id, pushToken: token, passTypeIdentifier: passType, attempts: 0)
                state.rows[id] = Row(job: job, dueAt: .distantPast, claimedUntil: .distantPast)
                return id
            }
        }
    }

    var completed: [Int64] { state.withLock { $0.completed } }
    var dropped: [Drop] { state.withLock { $0.dropped } }
    var retried: [Retry] { state.withLock { $0.retried } }
    var abandoned: [Int64] { state.withLock { $0.abandoned.map(\.0) } }
    var claims: Int { state.withLock { $0.claims } }
    var pending: Int { state.withLock { $0.rows.count } }

    func claimDuePushes(limit: Int, now: Date, lease: TimeInterval) throws -> [PushJob] {
        state.withLock { state in
            state.claims += 1
            let due = state.rows.values.filter { $0.dueAt <= now && $0.claimedUntil <= now }
                .sorted { $0.job.id < $1.job.id }.prefix(limit)
            for row in due { state.rows[row.job.id]?.claimedUntil = now.addingTimeInterval(lease) }
            return due.map(\.job)
        }
    }

    func completePush(id: Int64) throws {
        state.withLock { state in
            state.rows[id] = nil
            state.completed.append(id)
        }
    }

    func retryPush(id: Int64, at: Date, reason: String) throws {
        state.withLock { state in
            guard let row = state.rows[id] else { return }
            let job = PushJob(
                id: id, pushToken: row.job.pushToken, passTypeIdentifier: row.job.passTypeIdentifier,
                attempts: row.job.attempts + 1)
            state.rows[id] = Row(job: job, dueAt: at, claimedUntil: .distantPast)
            state.retried.append(Retry(id: id, at: at, recordedAt: clock(), reason: reason))
        }
    }

    func dropPush(id: Int64, deletingRegistrationsFor pushToken: String, reason: String) throws {
        state.withLock { state in
            state.rows = state.rows.filter { $0.key != id && $0.value.job.pushToken != pushToken }
            state.dropped.append(Drop(id: id, pushToken: pushToken, reason: reason))
        }
    }

    func abandonPush(id: Int64, reason: String) throws {
        state.withLock { state in
            state.rows[id] = nil
            state.abandoned.append((id, reason))
        }
    }
}

/// The same outbox without `abandonPush`, to check the fallback to `completePush`.
struct PushPlainOutbox: PushOutbox {
    let base: PushMemoryOutbox

    func claimDuePushes(limit: Int, now: Date, lease: TimeInterval) throws -> [PushJob] {
        try base.claimDuePushes(limit: limit, now: now, lease: lease)
    }
    func completePush(id: Int64) throws { try base.completePush(id: id) }
    func retryPush(id: Int64, at: Date, reason: String) throws { try base.retryPush(id: id, at: at, reason: reason) }
    func dropPush(id: Int64, deletingRegistrationsFor pushToken: String, reason: String) throws {
        try base.dropPush(id: id, deletingRegistrationsFor: pushToken, reason: reason)
    }
}

/// Collects the pusher's result labels and log lines.
final class PushRecorder: Sendable {
    private let labels = Mutex<[String]>([])
    private let lines = Mutex<[String]>([])

    var results: [String] { labels.withLock { $0 } }
    var logLines: [String] { lines.withLock { $0 } }
    func count(_ label: String) -> Int { results.filter { $0 == label }.count }

    var onResult: @Sendable (String) -> Void { { label in self.labels.withLock { $0.append(label) } } }
    var log: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
}
