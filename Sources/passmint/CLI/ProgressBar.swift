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
        guard enabled, p.elapsed - lastDraw >= 0.1 || p.done == p.total else { return }
        lastDraw = p.elapsed
        let rate = p.elapsed > 0 ? Double(p.done) / p.elapsed : 0
        var line = "\r"
        if let total = p.total, total > 0 {
            let width = 30
            let filled = min(width, p.done * width / total)
            let eta = rate > 0 ? Double(total - p.done) / rate : 0
            line += "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
            line += "\(p.done)/\(total)" + String(format: "  %.0f/s  ETA %.0fs", rate, eta)
        } else {
            line += "\(p.done) records" + String(format: "  %.0f/s", rate)
        }
        if p.failed > 0 { line += "  \(p.failed) failed" }
        FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
