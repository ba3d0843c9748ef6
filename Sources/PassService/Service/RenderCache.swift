import Synchronization

/// Renders a stored pass into `.pkpass` bytes. The pipeline (`PassMint`) provides the real one.
public protocol PassRenderer: Sendable {
    /// - Throws: any error; the service answers 500 and logs it.
    func render(_ pass: StoredPass) throws -> [UInt8]
}

/// Rendered pass bodies keyed by update tag (tags are unique across all passes, so a tag names one version of
/// one serial). Bounded by entry count and bytes; the oldest entries go first.
final class RenderCache: Sendable {
    private struct Entry {
        var serial: String
        var body: SharedBytes
    }

    private struct State {
        var entries: [Int64: Entry] = [:]
        var order: [Int64] = []
        var head = 0
        var bytes = 0
    }

    private let state = Mutex(State())
    private let maxEntries: Int
    private let maxBytes: Int

    init(maxEntries: Int, maxBytes: Int) {
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = maxBytes
    }

    func body(serial: String, tag: Int64) -> SharedBytes? {
        state.withLock { state in
            guard let entry = state.entries[tag], entry.serial == serial else { return nil }
            return entry.body
        }
    }

    func insert(serial: String, tag: Int64, body: SharedBytes) {
        state.withLock { state in
            guard state.entries[tag] == nil else { return }
            state.entries[tag] = Entry(serial: serial, body: body)
            state.order.append(tag)
            state.bytes += body.count
            while state.entries.count > maxEntries || (state.bytes > maxBytes && state.entries.count > 1) {
                let oldest = state.order[state.head]
                state.head += 1
                if let removed = state.entries.removeValue(forKey: oldest) { state.bytes -= removed.body.count }
            }
            if state.head > 1024 && state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
        }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
