import Foundation
import PassStore
import Synchronization

/// A clock tests move by hand.
public final class TestClock: Sendable {
    private let current: Mutex<Date>
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }
    public var now: Date { current.withLock { $0 } }
    public func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
    public var closure: @Sendable () -> Date { { self.now } }
}

public func samplePass(_ serial: String, passType: String = "pass.com.example.loyalty", token: String? = nil)
    -> StoredPass
{
    StoredPass(
        serialNumber: serial, passTypeIdentifier: passType, templatePath: "Templates/loyalty",
        record: ["name": "Ada", "tier": "Silver", "points": "10"],
        authenticationToken: token ?? "token-\(serial)-0123456789abcdef0123456789abcdef")
}

/// A fresh store of one backend with a clock tests move by hand.
public struct StoreFixture: Sendable {
    public let directory: TempDir
    public let clock: TestClock
    public let store: any ServiceStore
    /// Opens another store on the same file or database (another process, another `serve` instance).
    public let secondStore: @Sendable () throws -> any ServiceStore

    public init(_ backend: StoreBackend = .sqlite, clock: TestClock = TestClock()) throws {
        directory = try TempDir()
        self.clock = clock
        switch backend {
        case .sqlite:
            let path = directory.path("passes.sqlite")
            store = try SQLiteStore(path: path, now: clock.closure)
            secondStore = { try SQLiteStore(path: path, now: clock.closure) }
        case .postgres:
            let url = try PostgresTestServer.freshSchema()
            store = try PostgresStore(url: url, poolSize: 8, now: clock.closure)
            secondStore = { try PostgresStore(url: url, poolSize: 8, now: clock.closure) }
        }
    }

    /// The store's template versions (both stores implement them).
    public var templates: any ServiceStore { store }

    /// The store as SQLite, for the tests of what only the embedded store has (its file).
    public var sqlite: SQLiteStore { store as! SQLiteStore }
}
