import Dispatch
import Foundation
import Synchronization
import PassLog

/// In-memory copies of the hottest reads of a `PostgresStore` (the version behind a 304 or a download, a
/// device's registration list), kept honest by PostgreSQL's `LISTEN`/`NOTIFY` so several instances can share
/// one database, and the wake-up of this instance's pusher when any instance queues pushes.
///
/// Not cached, so a change to them needs no notification: absent passes and empty registration lists.
///
/// Guarantee: once a change to a pass or a registration has committed, on any instance or through any other
/// client (the triggers of schema step 9 notify for every writer), a read on this instance returns the old
/// state for at most the time the notification takes to reach this instance's listener (sub-millisecond on
/// one host). Writes made through this store invalidate at once, so an instance always reads its own writes.
/// Two rules make that hold:
/// - A value read from the database is cached only if no notification arrived (and no local write happened)
///   between the moment the read started and the moment it is stored (`generation`); a read that raced a
///   change is answered but not kept.
/// - The caches are used only while the listening connection is up. When it breaks (a database restart) they
///   are emptied and bypassed; after it has listened again they start empty, so nothing missed meanwhile is
///   served.
final class PostgresChangeFeed: Sendable {
    /// The channel of the schema-step-9 triggers.
    static let channel = "passmint_changes"

    /// A cached registration list: every serial of the pass type the device is registered for, with its tag.
    typealias Registrations = [(serial: String, tag: Int64)]

    /// What a lookup found.
    enum Lookup<Value> {
        /// The cached value.
        case hit(Value)
        /// Not cached: read the database, then `store…(…, generation:)` the value with this generation.
        case miss(generation: UInt64)
        /// The feed is not listening: read the database and keep nothing.
        case bypass
    }

    private struct CachedVersion {
        var passType: String
        var version: PassVersion
    }

    private struct State {
        var live = false
        var listener: Int32?
        /// The payload of the newest notification applied (tests wait for a marker of their own).
        var lastPayload = ""
        var stopping = false
        var generation: UInt64 = 0
        var versions: [String: CachedVersion] = [:]
        /// device → pass type → list.
        var lists: [String: [String: Registrations]] = [:]
        /// serial → the devices whose cached lists contain it (a change of the pass drops them).
        var devicesBySerial: [String: Set<String>] = [:]
        var onPushesQueued: [@Sendable () -> Void] = []

        mutating func dropAll() {
            generation &+= 1
            versions.removeAll()
            lists.removeAll()
            devicesBySerial.removeAll()
        }

        mutating func dropPass(_ serial: String) {
            generation &+= 1
            versions.removeValue(forKey: serial)
            for device in devicesBySerial.removeValue(forKey: serial) ?? [] { dropLists(device) }
        }

        mutating func dropDevice(_ device: String) {
            generation &+= 1
            dropLists(device)
        }

        mutating func dropLists(_ device: String) {
            guard let byType = lists.removeValue(forKey: device) else { return }
            for list in byType.values {
                for entry in list {
                    devicesBySerial[entry.serial]?.remove(device)
                    if devicesBySerial[entry.serial]?.isEmpty == true {
                        devicesBySerial.removeValue(forKey: entry.serial)
                    }
                }
            }
        }
    }

    private let state = Mutex(State())
    private let url: PostgresURL
    private let maxEntries: Int
    private let stopSignal = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let log: @Sendable (String) -> Void

    /// - Parameters:
    ///   - url: the database (the listener opens a connection of its own, outside the pool).
    ///   - maxEntries: versions and lists kept at most each; a full cache is emptied and refilled.
    init(url: PostgresURL, maxEntries: Int = 100_000, log: @escaping @Sendable (String) -> Void = ServiceLog.error) {
        self.url = url
        self.maxEntries = max(1, maxEntries)
        self.log = log
    }

    /// Starts the listener thread; lookups bypass the caches until it listens.
    func start() {
        let thread = Thread { [self] in
            listen()
            finished.signal()
        }
        thread.name = "passmint-pg-listen"
        thread.start()
    }

    /// Stops the listener thread and waits for it (within about a poll interval).
    func stop() {
        let running = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard running else { return }
        stopSignal.signal()
        finished.wait()
    }

    /// True while notifications are being received (the caches are in use).
    var isLive: Bool { state.withLock { $0.live } }

    /// The payload of the newest notification applied: once a marker sent after some commits shows here,
    /// every notification of those commits has been applied (they arrive in commit order).
    var lastPayload: String { state.withLock { $0.lastPayload } }

    /// The server process of the listening connection while it is up (tests cut it with `pg_terminate_backend`).
    var listenerProcessID: Int32? { state.withLock { $0.live ? $0.listener : nil } }

    /// Calls `handler` whenever any instance queued pushes, and once each time listening (re)starts, since
    /// notifications sent while it was down are lost.
    func onPushesQueued(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onPushesQueued.append(handler) }
    }

    // MARK: versions

    func version(passType: String, serial: String) -> Lookup<PassVersion?> {
        state.withLock { state in
            guard state.live else { return .bypass }
            guard let cached = state.versions[serial] else { return .miss(generation: state.generation) }
            return .hit(cached.passType == passType ? cached.version : nil)
        }
    }

    func storeVersion(_ version: PassVersion, passType: String, serial: String, generation: UInt64) {
        state.withLock { state in
            guard state.live, state.generation == generation else { return }
            if state.versions.count >= maxEntries { state.versions.removeAll() }
            state.versions[serial] = CachedVersion(passType: passType, version: version)
        }
    }

    // MARK: registration lists

    func registrations(device: String, passType: String) -> Lookup<Registrations> {
        state.withLock { state in
            guard state.live else { return .bypass }
            guard let list = state.lists[device]?[passType] else { return .miss(generation: state.generation) }
            return .hit(list)
        }
    }

    /// Keeps a non-empty list (an empty one is never cached: a device's first registration sends no
    /// notification, see schema step 9).
    func storeRegistrations(_ list: Registrations, device: String, passType: String, generation: UInt64) {
        state.withLock { state in
            guard state.live, state.generation == generation, !list.isEmpty else { return }
            if state.lists.count >= maxEntries {
                state.lists.removeAll()
                state.devicesBySerial.removeAll()
            }
            state.lists[device, default: [:]][passType] = list
            for entry in list { state.devicesBySerial[entry.serial, default: []].insert(device) }
        }
    }

    // MARK: local writes

    /// Called after this store committed a change to these passes (before the notification comes back).
    func passesChanged(_ serials: some Sequence<String>) {
        state.withLock { state in
            for serial in serials { state.dropPass(serial) }
        }
    }

    /// Called after this store committed a change it cannot name row by row.
    func everythingChanged() {
        state.withLock { $0.dropAll() }
    }

    /// Called after this store committed a change to the registrations of `device`.
    func registrationsChanged(device: String) {
        state.withLock { $0.dropDevice(device) }
    }

    // MARK: the listener

    private var isStopping: Bool { state.withLock { $0.stopping } }

    private func listen() {
        var failing = false
        while !isStopping {
            do {
                let connection = try PGConnection(url: url.connectionString, server: url.description)
                try connection.execute("LISTEN \(Self.channel)")
                let session = try connection.execute("SELECT coalesce(current_schema(), 'public'), pg_backend_pid()")
                let schema = session.string(0, 0)
                let processID = Int32(session.int(0, 1))
                // Listening from here on: start with empty caches (whatever changed before is read afresh).
                let handlers = state.withLock { state in
                    state.dropAll()
                    state.live = true
                    state.listener = processID
                    return state.onPushesQueued
                }
                if failing { log("store: change notifications from \(url) received again; caches on") }
                failing = false
                for handler in handlers { handler() }
                try receive(on: connection, schema: schema)
            } catch {
                state.withLock { state in
                    state.live = false
                    state.dropAll()
                }
                if isStopping { break }
                if !failing {
                    log(
                        ServiceLog.line(
                            "store: change notifications from \(url) lost", error,
                            after: "caches off, retrying every second"))
                }
                failing = true
                _ = stopSignal.wait(timeout: .now() + 1)
            }
        }
        state.withLock { state in
            state.live = false
            state.dropAll()
        }
    }

    /// Applies notifications until stopped; throws when the connection breaks. An idle connection is probed
    /// every second, so a connection the server dropped silently is noticed within about a second.
    private func receive(on connection: PGConnection, schema: String) throws {
        let prefix = schema + " "
        var idle = 0
        while !isStopping {
            let notifications = try connection.awaitNotifications(timeoutMilliseconds: 250)
            if notifications.isEmpty {
                idle += 1
                if idle >= 4 {
                    idle = 0
                    try connection.execute("SELECT 1")
                }
                continue
            }
            idle = 0
            var queued = false
            state.withLock { state in
                for notification in notifications
                where notification.channel == Self.channel && notification.payload.hasPrefix(prefix) {
                    let body = notification.payload.utf8.dropFirst(prefix.utf8.count)
                    state.lastPayload = notification.payload
                    guard let kind = body.first else { continue }
                    let key = String(decoding: body.dropFirst(2), as: UTF8.self)
                    switch kind {
                    case UInt8(ascii: "p"): state.dropPass(key)
                    case UInt8(ascii: "d"): state.dropDevice(key)
                    case UInt8(ascii: "o"): queued = true
                    default: state.dropAll()
                    }
                }

            }
            if queued {
                for handler in state.withLock({ $0.onPushesQueued }) { handler() }
            }
        }
    }
}
