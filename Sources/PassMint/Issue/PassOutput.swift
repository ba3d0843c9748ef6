import Foundation
import PassArchive

/// Writes outputs atomically (temporary name, then rename).
public enum PassOutput {
    /// Writes `bytes` to `path` via a temporary file in the same folder. `durable` also fsyncs file and folder
    /// (batch skips that: a killed run is repaired by `--resume`, which re-checks every file).
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(PassMintError) {
        try write(ArchiveParts(bytes), to: path, durable: durable)
    }

    /// `write(_:to:durable:)` for an archive in pieces (one `writev`, no joined copy).
    public static func write(_ parts: ArchiveParts, to path: String, durable: Bool = true) throws(PassMintError) {
        do {
            try AtomicFile.write(parts, to: path, durable: durable)
        } catch {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
                throw .output(path: path, .folderMissing(folder))
            }
            throw .output(path: path, .writeFailed(error))
        }
    }
}
