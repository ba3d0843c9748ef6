import Foundation
import PassArchive
import PassModel

/// The JSON Lines report of a long job (`batch`, `update --csv`, `resign`, `templates publish`): one object per
/// record, appended as each chunk is committed to a temporary file that is renamed into place when the job ends.
public final class ReportWriter {
    /// How the lines are written.
    public enum Style: Sendable {
        /// Keys sorted, nothing escaped that JSON does not require (PassModel's `JSONWriter`).
        case plain
        /// As `plain`, with every `/` written `\/`, as Foundation's `JSONSerialization` writes it: the lines of
        /// `templates publish` have always looked so, and a reader comparing reports byte for byte keeps working.
        case slashesEscaped
    }

    private let path: String
    private let temporary: String
    private let handle: FileHandle
    private let style: Style
    private var finished = false

    /// Creates the temporary file next to `path`.
    /// - Throws: `.report` naming the report file when it cannot be created.
    public init(path: String, style: Style = .plain) throws(PassMintError) {
        self.path = path
        self.style = style
        temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw .report(path: path, .cannotCreate)
        }
        self.handle = handle
        TemporaryFiles.register(temporary)
    }

    /// A report never finished (the job stopped before it could end) leaves no temporary file behind.
    deinit {
        guard !finished else { return }
        try? handle.close()
        unlink(temporary)
        TemporaryFiles.unregister(temporary)
    }

    /// Appends one line per outcome.
    package func append<Outcome: JobOutcome>(_ outcomes: [Outcome]) throws(PassMintError) {
        guard !outcomes.isEmpty else { return }
        try append(objects: outcomes.map(\.reportObject))
    }

    /// Appends one line per object.
    public func append(objects: [[String: JSONValue]]) throws(PassMintError) {
        var out: [UInt8] = []
        for object in objects {
            let line = JSONWriter.serialize(.object(object), pretty: false)
            switch style {
            case .plain:
                out += line
            case .slashesEscaped:
                // Outside strings JSON has no `/`, so every one is inside a key or a value.
                for byte in line {
                    if byte == UInt8(ascii: "/") { out.append(UInt8(ascii: "\\")) }
                    out.append(byte)
                }
            }
            out.append(0x0A)
        }
        do { try handle.write(contentsOf: out) } catch {
            throw .report(path: path, .writeFailed(underlying: error))
        }
    }

    /// Moves the finished report into place.
    public func finish() throws(PassMintError) {
        try? handle.close()
        finished = true
        defer { TemporaryFiles.unregister(temporary) }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .report(path: path, .cannotMove)
        }
    }
}
