import PassStore

/// Google Wallet's counters on `/metrics`: what the Google worker did with its rows, the callbacks, and the
/// Google install figures per template.
extension Metrics {
    /// Counts one finished Google outbox row: `patched`, `inserted`, `notified`, `silenced`, `class`, `retry`,
    /// `failed`. Called by the Google worker.
    package func recordGoogle(result: String) {
        googleResults.withLock { $0[result, default: 0] += 1 }
    }

    /// Counts one callback: `save`, `delete`, `replay` or `refused`.
    package func recordGoogleCallback(outcome: String) {
        googleCallbacks.withLock { $0[outcome, default: 0] += 1 }
    }

    /// How many Google rows ended with `result`.
    package func googleCount(result: String) -> Int {
        googleResults.withLock { $0[result] ?? 0 }
    }

    func renderGoogle(installs: [InstallTotals]?) -> String {
        let results = googleResults.withLock { $0 }
        let callbacks = googleCallbacks.withLock { $0 }
        var out = ""
        if !results.isEmpty {
            out += "# HELP passmint_google_updates_total Google Wallet outbox rows by result (silenced: a change "
            out += "announced on Apple sent silently, past Google's 3 notifying messages per pass per 24 h).\n"
            out += "# TYPE passmint_google_updates_total counter\n"
            for (result, count) in results.sorted(by: { $0.key < $1.key }) {
                out += "passmint_google_updates_total{result=\(Self.label(result))} \(count)\n"
            }
        }
        if !callbacks.isEmpty {
            out += "# HELP passmint_google_callbacks_total Google Wallet save and delete callbacks by outcome.\n"
            out += "# TYPE passmint_google_callbacks_total counter\n"
            for (outcome, count) in callbacks.sorted(by: { $0.key < $1.key }) {
                out += "passmint_google_callbacks_total{outcome=\(Self.label(outcome))} \(count)\n"
            }
        }
        if let installs, installs.contains(where: { $0.google != GoogleInstallFigures() }) {
            out += "# HELP passmint_google_active_passes Passes held in Google Wallet (last callback a save), by "
            out += "template.\n# TYPE passmint_google_active_passes gauge\n"
            for totals in installs {
                out +=
                    "passmint_google_active_passes{template=\(Self.label(totals.template))} \(totals.google.active)\n"
            }
        }
        return out
    }
}
