import PassArchive
import PassOperations
import Synchronization
import PassStore
import PassHTTP

/// Renders a stored pass into `.pkpass` bytes. The pipeline (`PassMint`) provides the real one.
package protocol PassRenderer: Sendable {
    /// - Throws: any error; the service answers 500 and logs it.
    func render(_ pass: StoredPass) throws -> [UInt8]
    /// Which signing identity renders now: it grows whenever the identity is replaced, so that bodies signed by an
    /// older one are no longer served from the cache.
    var identityGeneration: Int { get }
    /// Renders and says which identity generation signed the body (read together, so a swap in between cannot
    /// file an old signature under the new generation). The body is in pieces: a pass's template assets stay in
    /// the issuer's asset cache, shared by every body cached and sent.
    func renderSigned(_ pass: StoredPass) throws -> (body: ArchiveParts, identityGeneration: Int)
}

extension PassRenderer {
    /// A renderer whose identity never changes.
    package var identityGeneration: Int { 0 }
    package func renderSigned(_ pass: StoredPass) throws -> (body: ArchiveParts, identityGeneration: Int) {
        (ArchiveParts(try render(pass)), 0)
    }
}

/// The pipeline's renderer (the program's operations) is the one `serve` renders with.
extension TemplateRenderer: PassRenderer {}

/// Rendered pass bodies keyed by update tag (tags are unique across all passes, so a tag names one version of
/// one serial), each with the identity generation that signed it: a body signed by a replaced identity is never
/// handed out. Bounded by entry count and bytes; the oldest entries go first.
final class RenderCache: Sendable {
    private struct Entry {
        var serial: String
        var identityGeneration: Int
        var body: ArchiveParts
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

    func body(serial: String, tag: Int64, identityGeneration: Int) -> ArchiveParts? {
        state.withLock { state in
            guard let entry = state.entries[tag], entry.serial == serial, entry.identityGeneration == identityGeneration
            else { return nil }
            return entry.body
        }
    }

    func insert(serial: String, tag: Int64, body: ArchiveParts, identityGeneration: Int) {
        state.withLock { state in
            if let existing = state.entries[tag] {
                // Same version: keep the newer identity's signature (its tag stays where it is in `order`).
                guard existing.identityGeneration < identityGeneration else { return }
                state.entries[tag] = Entry(serial: serial, identityGeneration: identityGeneration, body: body)
                state.bytes += body.count - existing.body.count
                return
            }
            state.entries[tag] = Entry(serial: serial, identityGeneration: identityGeneration, body: body)
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

    /// Drops every body (the identity changed: none of them will be handed out again).
    func removeAll() {
        state.withLock { $0 = State() }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
