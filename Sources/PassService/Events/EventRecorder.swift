import Dispatch
import Foundation
import Synchronization
import PassConcurrency
import PassLog
import PassStore

/// Takes events from the request threads and writes them in batches on a thread of its own, so a request only
/// appends to a queue: the store sees one transaction per batch (like the group commit of registrations), never
/// one per request; identical events of one batch are stored once with their count. The queue is bounded
/// (`PassEventOptions.maxQueued`); what does not fit is dropped and counted.
package final class EventRecorder: Sendable {
    private struct Queue {
        var events: [PassEvent] = []
        var lists: [ListRequest] = []
        var dropped = 0
        var running = false
        var stopping = false
        var count: Int { events.count + lists.count }
    }

    /// Events one transaction writes at most.
    static let batchLimit = 2000
    /// How long an event may wait for its batch when few arrive.
    static let flushInterval = DispatchTimeInterval.milliseconds(100)

    private let store: any PassEventStore
    private let options: PassEventOptions
    /// Appended to by every request thread: a lock that sleeps rather than spins (see `SleepingLock`).
    private let queue = SleepingLock(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Counts written and dropped events.
    private let onWritten: @Sendable (_ written: Int, _ dropped: Int) -> Void

    package init(
        store: any PassEventStore, options: PassEventOptions,
        onWritten: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) {
        self.store = store
        self.options = options
        self.onWritten = onWritten
    }

    /// Queues one event (the device's request is answered without waiting for it).
    package func record(_ event: PassEvent) { enqueue { $0.events.append(event) } }

    /// Queues one list request (stored as an event of each pass the device holds of that type).
    package func record(_ list: ListRequest) { enqueue { $0.lists.append(list) } }

    /// Adds to the queue unless it is full (then counts a drop), and wakes the writer once a batch is waiting.
    private func enqueue(_ add: (inout Queue) -> Void) {
        let full = queue.withLock { queue -> Bool in
            guard queue.count < options.maxQueued else {
                queue.dropped += 1
                return false
            }
            add(&queue)
            return queue.count == Self.batchLimit
        }
        if full { wake.signal() }
    }

    /// Starts the writer thread.
    package func start() {
        let start = queue.withLock { queue -> Bool in
            guard !queue.running else { return false }
            queue.running = true
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "passmint-events"
        thread.start()
    }

    /// Writes what is queued and stops the writer.
    package func stop() {
        let running = queue.withLock { queue -> Bool in
            defer { queue.stopping = true }
            return queue.running && !queue.stopping
        }
        guard running else { return }
        wake.signal()
        finished.wait()
    }

    /// Writes everything queued now, on the caller's thread (tests and tools; the writer does this on its own).
    package func flush() {
        while writeBatch() > 0 {}
    }

    private func run() {
        while true {
            _ = wake.wait(timeout: .now() + Self.flushInterval)
            let stopping = queue.withLock { $0.stopping }
            flush()
            if stopping { return }
        }
    }

    /// Takes everything queued (swapping the queue for an empty one, so request threads never wait for a copy)
    /// and writes it in batches; the number of events taken.
    private func writeBatch() -> Int {
        let (events, queuedLists, dropped) = queue.withLock { queue -> ([PassEvent], [ListRequest], Int) in
            defer {
                queue.events = []
                queue.lists = []
                queue.dropped = 0
            }
            return (queue.events, queue.lists, queue.dropped)
        }
        let taken = events.count + queuedLists.count
        guard taken > 0 || dropped > 0 else { return 0 }
        var written = 0
        var lost = dropped
        let coalesced = Self.coalesce(events)
        let lists = Self.coalesce(queuedLists)
        var start = 0
        var listStart = 0
        while start < coalesced.count || listStart < lists.count {
            let chunk = Array(coalesced[start..<min(coalesced.count, start + Self.batchLimit)])
            let room = Self.batchLimit - chunk.count
            let listChunk = Array(lists[listStart..<min(lists.count, listStart + room)])
            start += chunk.count
            listStart += listChunk.count
            let represented = chunk.reduce(0) { $0 + $1.count } + listChunk.reduce(0) { $0 + $1.count }
            do {
                try store.recordEvents(chunk, lists: listChunk, keepPerPass: options.perPass)
                written += represented
            } catch {
                ServiceLog.error("events: writing \(represented) events failed, they are dropped: \(error)")
                lost += represented
            }
        }
        onWritten(written, lost)
        return taken
    }

    /// Identical events that arrived together become one event with their count, at the first one's time: a
    /// fan-out sends thousands of phones for the same version at once, a 304 or a registration repeated is the same
    /// answer again, and the pass keeps only its newest events. The rest stay as they are, in order.
    static func coalesce(_ events: [PassEvent]) -> [PassEvent] {
        struct Key: Hashable {
            var serial: String
            var passType: String
            var device: String?
            var tag: Int64?
            var detail: PassEventDetail

            /// The serial, device and numbers only: the dates and prefixes as text add little to tell events apart.
            func hash(into hasher: inout Hasher) {
                hasher.combine(serial)
                hasher.combine(device)
                hasher.combine(tag)
                switch detail {
                case .downloaded(_, let seconds, let status, _):
                    hasher.combine(seconds)
                    hasher.combine(status)
                case .registered(let created, _): hasher.combine(created)
                case .listed(let since, let status, let included, _):
                    hasher.combine(since)
                    hasher.combine(status)
                    hasher.combine(included)
                case .pushed(let status, _, _, _, _): hasher.combine(status)
                case .unregistered, .logged: hasher.combine(detail.kind)
                }
            }
        }
        return merging(events, count: \.count) {
            Key(serial: $0.serial, passType: $0.passType, device: $0.device, tag: $0.tag, detail: $0.detail)
        }
    }

    /// Identical list requests of a device that arrived together (the same question, the same answer) become one
    /// with their count, at the first one's time.
    static func coalesce(_ lists: [ListRequest]) -> [ListRequest] {
        struct Key: Hashable {
            var device: String
            var passType: String
            var since: Int64?
            var status: Int
            var serials: [String]
            var lastUpdated: Int64?
        }
        return merging(lists, count: \.count) {
            Key(
                device: $0.device, passType: $0.passType, since: $0.since, status: $0.status, serials: $0.serials,
                lastUpdated: $0.lastUpdated)
        }
    }

    /// Items with equal keys become the first of them with their counts added, in the order first seen.
    private static func merging<Item, Key: Hashable>(
        _ items: [Item], count: WritableKeyPath<Item, Int>, key: (Item) -> Key
    ) -> [Item] {
        var out: [Item] = []
        var index: [Key: Int] = [:]
        out.reserveCapacity(items.count)
        for item in items {
            let key = key(item)
            if let at = index[key] {
                out[at][keyPath: count] += item[keyPath: count]
            } else {
                index[key] = out.count
                out.append(item)
            }
        }
        return out
    }
}
