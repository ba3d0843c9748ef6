import Foundation
import FuzzSupport
import PassArchive
import PassMint

/// Input: an option byte, then either (even option) the bytes of a .pkpass or .pkpasses, or (odd option) archive
/// entries, each `name LF content`, separated by `FuzzInput.separator`, that are zipped first.
///
/// A mutated zip almost always fails its CRC check, so raw bytes mostly exercise libzip and the archive
/// checks; zipping the entries first lets mutations reach manifest.json, the PKCS#7 signature, pass.json,
/// the PNG headers and pass.strings. Either way the archive is read within the pass limits and then verified
/// offline as a whole (`passmint verify`). A zip that holds .pkpass entries and no pass.json is verified under a
/// `.pkpasses` name, as a user would have named it, so the bundle limits and nested verification run too.
@main
enum FuzzArchive {
    static func main() { FuzzDriver.run(fuzzArchive) }
}

/// Fixed, so that a crash replays the same certificate checks.
private let now = Date(timeIntervalSince1970: 1_767_225_600)

private func fuzzArchive(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let (mode, input) = FuzzInput(start, count).choice(of: 2)
    let bytes: [UInt8]
    if mode == 0 {
        bytes = input.bytes
    } else {
        let entries = input.parts().map { part in
            let newline = part.firstIndex(of: 0x0A) ?? part.endIndex
            let content = newline < part.endIndex ? Array(part[(newline + 1)...]) : []
            return ArchiveEntry(name: String(decoding: part[..<newline], as: UTF8.self), bytes: content)
        }
        guard let zipped = try? ArchiveWriter.makeArchive(entries) else { return 0 }
        bytes = zipped
    }
    var name = "fuzz.pkpass"
    if let reader = try? ArchiveReader(bytes: bytes, name: name, limits: .pass) {
        for entry in reader.entryNames where !entry.hasSuffix("/") { _ = try? reader.read(entry) }
        _ = reader.files
        if !reader.contains("pass.json"), reader.entryNames.contains(where: { $0.hasSuffix(".pkpass") }) {
            name = "fuzz.pkpasses"
        }
    }
    for report in PassVerifier.verify(bytes: bytes, name: name, now: now) {
        // Each report names the archive it is about, and every problem carries a stable code.
        require(report.file.hasPrefix(name), "a report named \(report.file) for \(name)")
        for problem in report.problems { require(!problem.code.rawValue.isEmpty, "a problem without a code") }
    }
    return 0
}
