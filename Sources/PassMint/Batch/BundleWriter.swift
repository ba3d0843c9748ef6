import Foundation
import PassArchive

/// Groups issued passes, in CSV order, into `.pkpasses` bundles of at most 10.
struct BundleWriter {
    let directory: String
    private var pending: [(name: String, bytes: [UInt8])] = []
    private(set) var written = 0

    init(directory: String) {
        self.directory = directory
    }

    mutating func add(_ result: BatchRunner.WorkResult) throws(PassMintError) {
        guard let archive = result.archive, let file = result.outcome.file else { return }
        pending.append((file, archive))
        if pending.count == PassBundle.maxPasses { try flush() }
    }

    mutating func finish() throws(PassMintError) {
        if !pending.isEmpty { try flush() }
    }

    private mutating func flush() throws(PassMintError) {
        written += 1
        let path = "\(directory)/bundle-\(String(format: "%05d", written)).pkpasses"
        do {
            try PassOutput.write(try PassBundle.make(pending), to: path)
        } catch let error as PassMintError {
            throw error
        } catch {
            throw .environment("bundle \(path): \(error)")
        }
        pending.removeAll(keepingCapacity: true)
    }
}
