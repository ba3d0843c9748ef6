import Dispatch
import Foundation
import Synchronization
import PassConcurrency
import PassLog
import PassStore

/// Takes events from the request threads and writes them in batches on a thread of its own, so a request only
/// appends to a queue: the store sees one transaction per batch (like the group commit of registrations), never
/// one per request. Identical events of one batch are one queued event with their count, at the first one's time
/// (a fan-out sends thousands of phones for the same version at once, a 304 or a registration repeated is the same
/// answer again, and the pass keeps only its newest events): a repeat only adds to a count. The queue is bounded
/// (`PassEventOptions.maxQueued` distinct events); what does not fit is dropped and counted.
package final class EventRecorder: Sendable {
    private struct Queue {
        var events = Coalescing<PassEvent>()
        var lists = Coalescing<ListRequest>()
        var dropped = 0
        var running = false
        var stopping = false
        var count: Int { events.items.count + lists.items.count }
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
    package func record(_ event: PassEvent) {
        let key = EventKey(event)
        enqueue { queue, room in queue.events.add(event, key: key, room: room) }
    }

    /// Queues one list request (stored as an event of each pass the device holds of that type).
    package func record(_ list: ListRequest) {
        let key = ListKey(list)
        enqueue { queue, room in queue.lists.add(list, key: key, room: room) }
    }

    /// Adds to the queue (a repeat to its first one's count; a new item only while there is room, else a drop is
    /// counted), and wakes the writer once, when a new item completes a batch (a repeat leaves the count as it is).
    private func enqueue(_ add: (inout Queue, _ room: Bool) -> Bool) {
        let full = queue.withLock { queue -> Bool in
            let before = queue.count
            if !add(&queue, before < options.maxQueued) { queue.dropped += 1 }
            return before < Self.batchLimit && queue.count == Self.batchLimit
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
        let (coalesced, lists, dropped) = queue.withLock { queue -> ([PassEvent], [ListRequest], Int) in
            defer {
                queue.events = Coalescing()
                queue.lists = Coalescing()
                queue.dropped = 0
            }
            return (queue.events.items, queue.lists.items, queue.dropped)
        }
        let taken = coalesced.count + lists.count
        guard taken > 0 || dropped > 0 else { return 0 }
        var written = 0
        var lost = dropped
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

    /// What makes two events identical: everything but the time.
    struct EventKey: Hashable {
        var serial: String
        var passType: String
        var device: String?
        var tag: Int64?
        var detail: PassEventDetail

        init(_ event: PassEvent) {
            (serial, passType, device, tag, detail) = (
                event.serial, event.passType, event.device, event.tag, event.detail
            )
        }

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

    /// What makes two list requests identical (the same question from the same device, the same answer).
    struct ListKey: Hashable {
        var device: String
        var passType: String
        var since: Int64?
        var status: Int
        var serials: [String]
        var lastUpdated: Int64?

        init(_ list: ListRequest) {
            (device, passType, since, status, serials, lastUpdated) = (
                list.device, list.passType, list.since, list.status, list.serials, list.lastUpdated
            )
        }
    }
}

/// Queued items in the order first seen; an item equal (by key) to one queued is added to that one's count.
private struct Coalescing<Item: CountedEvent> {
    private(set) var items: [Item] = []
    private var index: [Item.Key: Int] = [:]

    /// Adds `item`: to the count of the queued one with its key, else as a new item when there is `room`.
    /// Returns false when it was neither.
    mutating func add(_ item: Item, key: Item.Key, room: Bool) -> Bool {
        if let at = index[key] {
            items[at].count += item.count
            return true
        }
        guard room else { return false }
        index[key] = items.count
        items.append(item)
        return true
    }
}

/// An event that stands for `count` identical ones.
private protocol CountedEvent {
    associatedtype Key: Hashable
    var count: Int { get set }
}

extension PassEvent: CountedEvent {
    fileprivate typealias Key = EventRecorder.EventKey
}

extension ListRequest: CountedEvent {
    fileprivate typealias Key = EventRecorder.ListKey
}
