import Foundation
import PassArchive

/// Groups issued passes, in CSV order, into `.pkpasses` bundles of at most 10, numbered in that order. The
/// grouping happens on the batch's main thread; the bundles themselves are written by the workers
/// (`BundleFile.write`), alongside the next window's passes.
struct BundleWriter {
    let directory: String
    /// File names are `<prefix><number>.pkpasses`, numbered from 00001.
    let prefix: String
    private var pending: [(name: String, parts: ArchiveParts)] = []
    /// Bundles formed so far.
    private(set) var formed = 0

    init(directory: String, prefix: String = "bundle-") {
        self.directory = directory
        self.prefix = prefix
    }

    /// The full bundles that `results` complete; passes left over wait for the next call.
    mutating func bundles(adding results: [BatchRecordIssuer.WorkResult]) -> [BundleFile] {
        var full: [BundleFile] = []
        for result in results {
            guard let archive = result.archive, let file = result.outcome.file else { continue }
            pending.append((file, archive))
            if pending.count == PassBundle.maxPasses { full.append(take()) }
        }
        return full
    }

    /// The last bundle, with fewer than 10 passes, if any are left.
    mutating func remainder() -> BundleFile? {
        pending.isEmpty ? nil : take()
    }

    private mutating func take() -> BundleFile {
        formed += 1
        defer { pending.removeAll(keepingCapacity: true) }
        return BundleFile(path: "\(directory)/\(prefix)\(String(format: "%05d", formed)).pkpasses", passes: pending)
    }
}

/// One `.pkpasses` file to write.
struct BundleFile: Sendable {
    let path: String
    let passes: [(name: String, parts: ArchiveParts)]

    func write() throws(PassMintError) {
        let parts: ArchiveParts
        do { parts = try PassBundle.makeParts(passes) } catch { throw .bundle(path: path, error) }
        // Not fsynced, like the passes themselves: `--resume` re-checks what a crash left.
        try PassOutput.write(parts, to: path, durable: false)
    }
}
