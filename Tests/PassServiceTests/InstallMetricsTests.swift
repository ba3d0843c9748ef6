import Foundation
import Synchronization
import Testing
@testable import PassStore
@testable import PassService

/// The install figures as `/metrics` serves them (the store's side is `InstallStatsTests`).
@Suite("Install figures in /metrics")
struct InstallMetricsTests {
    @Test("/metrics serves the install totals from memory between refreshes, and the last ones when the store fails")
    func metricsCache() throws {
        let metrics = Metrics(installRefresh: .seconds(3600))
        let reads = Mutex(0)
        let totals = [InstallTotals(template: "a\"b", issued: 3, added: 2, removed: 1, activeDevices: 1)]
        for _ in 0..<5 {
            #expect(
                metrics.installTotals {
                    reads.withLock { $0 += 1 }; return totals
                } == totals)
        }
        #expect(reads.withLock { $0 } == 1)
        let text = metrics.render(registrations: nil, outboxDepth: nil, installs: totals)
        for line in [
            "# TYPE passmint_passes_issued_total counter", #"passmint_passes_issued_total{template="a\"b"} 3"#,
            #"passmint_passes_added_total{template="a\"b"} 2"#, #"passmint_passes_removed_total{template="a\"b"} 1"#,
            "# TYPE passmint_active_devices gauge", #"passmint_active_devices{template="a\"b"} 1"#,
        ] {
            #expect(text.split(separator: "\n").contains(Substring(line)), "\(line)")
        }
        let fresh = Metrics(installRefresh: .zero)
        #expect(fresh.installTotals { totals } == totals)
        #expect(fresh.installTotals { throw StoreError.passNotFound(serial: "x") } == totals)
        #expect(Metrics(installRefresh: .zero).installTotals { throw StoreError.passNotFound(serial: "x") } == nil)
    }
}
