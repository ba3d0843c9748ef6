import Foundation
@_exported import PassMintTestSupport
import Synchronization

@testable import PassService

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
    var closure: @Sendable () -> Date { { self.now } }
}

func samplePass(_ serial: String, passType: String = "pass.com.example.loyalty", token: String? = nil) -> StoredPass {
    StoredPass(
        serialNumber: serial, passTypeIdentifier: passType, templatePath: "Templates/loyalty",
        record: ["name": "Ada", "tier": "Silver", "points": "10"],
        authenticationToken: token ?? "token-\(serial)-0123456789abcdef0123456789abcdef")
}

struct StoreFixture {
    let directory: TempDir
    let clock: TestClock
    let store: SQLiteStore

    init(clock: TestClock = TestClock()) throws {
        directory = try TempDir()
        self.clock = clock
        store = try SQLiteStore(path: directory.path("passes.sqlite"), now: clock.closure)
    }
}
