import Foundation
import PassMint

/// A one-line progress bar on stderr (count, rate, ETA), only when stderr is a terminal.
final class ProgressBar {
    let enabled: Bool
    private var lastDraw = 0.0

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func update(_ p: BatchProgress) {
        update(done: p.done, total: p.total, failed: p.failed, elapsed: p.elapsed)
    }

    /// Draws `done` of `total` (a bar and an ETA when the total is known), `unit` naming what is counted.
    func update(done: Int, total: Int?, failed: Int = 0, elapsed: Double, unit: String = "records") {
        guard enabled, elapsed - lastDraw >= 0.1 || done == total else { return }
        lastDraw = elapsed
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        var line = "\r"
        if let total, total > 0 {
            let width = 30
            let filled = min(width, done * width / total)
            let eta = rate > 0 ? Double(total - done) / rate : 0
            line += "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
            line += "\(done)/\(total)" + String(format: "  %.0f/s  ETA %.0fs", rate, eta)
        } else {
            line += "\(done) \(unit)" + String(format: "  %.0f/s", rate)
        }
        if failed > 0 { line += "  \(failed) failed" }
        FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
