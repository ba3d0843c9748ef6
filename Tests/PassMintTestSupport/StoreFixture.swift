import Foundation
import PassStore
import Synchronization

/// A clock tests move by hand.
package final class TestClock: Sendable {
    private let current: Mutex<Date>
    package init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }
    package var now: Date { current.withLock { $0 } }
    package func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
    package var closure: @Sendable () -> Date { { self.now } }
}

package func samplePass(_ serial: String, passType: String = "pass.com.example.loyalty", token: String? = nil)
    -> StoredPass
{
    StoredPass(
        serialNumber: serial, passTypeIdentifier: passType, templatePath: "Templates/loyalty",
        record: ["name": "Ada", "tier": "Silver", "points": "10"],
        authenticationToken: token ?? "token-\(serial)-0123456789abcdef0123456789abcdef")
}

/// A personalization token of the shape Wallet sends (the route tests post it, the store tests store it).
public let walletToken = "dGhlIHBlcnNvbmFsaXphdGlvbiB0b2tlbiBvZiBhIHJlYWwgc2lnbi11cA=="

/// A fresh store of one backend with a clock tests move by hand.
package struct StoreFixture: Sendable {
    package let directory: TempDir
    package let clock: TestClock
    package let store: any ServiceStore
    /// Opens another store on the same file or database (another process, another `serve` instance).
    package let secondStore: @Sendable () throws -> any ServiceStore

    package init(_ backend: StoreBackend = .sqlite, clock: TestClock = TestClock()) throws {
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
    package var templates: any ServiceStore { store }

    /// The store as SQLite, for the tests of what only the embedded store has (its file).
    package var sqlite: SQLiteStore { store as! SQLiteStore }
}
