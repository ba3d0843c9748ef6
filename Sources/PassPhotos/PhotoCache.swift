import PassTemplates
import Synchronization

/// Scaled images by source file and target, so a photo used by many records is decoded and scaled once.
///
/// The key includes the file's size and modification time, so an edited file is scaled again. Memory is bounded
/// by the bytes of the PNGs held: the least recently used entry goes first. Safe to use from many threads.
final class PhotoCache: Sendable {
    struct Key: Hashable, Sendable {
        var path: String
        var size: Int
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
        var slot: String
        var width: Int
        var height: Int
    }

    private struct Entry {
        var files: [PassFile]
        var bytes: Int
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// Most bytes of PNG data kept.
    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = capacity
    }

    func files(for key: Key) -> [PassFile]? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.files
        }
    }

    func insert(_ files: [PassFile], for key: Key) {
        let size = files.reduce(0) { $0 + $1.bytes.count }
        guard size <= capacity else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries.updateValue(Entry(files: files, bytes: size, lastUse: state.clock), forKey: key)
            {
                state.bytes -= old.bytes
            }
            state.bytes += size
            // A linear scan for the oldest entry: the cache holds a few hundred entries at most (each photo's three
            // PNGs are tens to hundreds of KB), so this costs less than the scaling it saves.
            while state.bytes > capacity, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.bytes -= oldest.value.bytes
                state.entries.removeValue(forKey: oldest.key)
            }
        }
    }

    /// Bytes held now (for tests).
    var bytesHeld: Int { state.withLock { $0.bytes } }
    /// Entries held now (for tests).
    var count: Int { state.withLock { $0.entries.count } }
}
