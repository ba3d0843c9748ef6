import Foundation
@_exported import PassMintTestSupport
import Testing

/// Output and exit status of a finished process.
struct ToolResult {
    var status: Int32
    var output: String
}

/// Runs `/usr/bin/<tool> args` (the shared runner) with stdout and stderr together.
func runTool(_ tool: String, _ args: [String], in directory: String? = nil) throws -> ToolResult {
    let result = try CLI.run("/usr/bin/" + tool, args, cwd: directory.map { URL(fileURLWithPath: $0) })
    return ToolResult(status: result.status, output: result.stdout + result.stderr)
}

/// Whether `/usr/bin/<tool>` exists (tests that need it are skipped otherwise).
func hasTool(_ tool: String) -> Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/" + tool)
}

/// One row of `unzip -v`: method and name.
struct UnzipRow: Equatable {
    var method: String
    var name: String
}

/// Parses `unzip -v` output into rows (method column and name column).
func parseUnzipVerbose(_ output: String) -> [UnzipRow] {
    var rows: [UnzipRow] = []
    var inTable = false
    for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("--------") {
            if inTable { break }
            inTable = true
            continue
        }
        guard inTable else { continue }
        let fields = line.split(separator: " ", maxSplits: 7, omittingEmptySubsequences: true)
        guard fields.count == 8 else { continue }
        rows.append(UnzipRow(method: String(fields[1]), name: String(fields[7].drop { $0 == " " })))
    }
    return rows
}

/// The values of every `key: value` line of `zipinfo -v` output whose key is `key`.
func zipinfoValues(_ output: String, key: String) -> [String] {
    output.split(separator: "\n").compactMap { line in
        let trimmed = line.drop { $0 == " " }
        guard trimmed.hasPrefix(key + ":") else { return nil }
        return String(trimmed.dropFirst(key.count + 1).drop { $0 == " " })
    }
}

/// Deterministic pseudo-random bytes (incompressible), for PNG-like and large-entry tests.
func noiseBytes(count: Int, seed: UInt64) -> [UInt8] {
    var state = seed | 1
    var bytes = [UInt8](repeating: 0, count: count)
    for i in 0..<count {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        bytes[i] = UInt8(truncatingIfNeeded: state)
    }
    return bytes
}

/// A few bytes that start like a PNG file.
let pngLike: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + noiseBytes(count: 3000, seed: 7)

/// UTF-8 bytes of a string.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Local file headers of a zip, walked from offset 0: (name, extra-field length, general-purpose flags).
/// Stops at the first non-local-header signature (the central directory).
func localHeaders(_ zip: [UInt8]) -> [(name: String, extraLength: Int, flags: Int)] {
    func u16(_ at: Int) -> Int { Int(zip[at]) | Int(zip[at + 1]) << 8 }
    func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
    var result: [(name: String, extraLength: Int, flags: Int)] = []
    var offset = 0
    while offset + 30 <= zip.count, u32(offset) == 0x0403_4B50 {
        let nameLength = u16(offset + 26)
        let extraLength = u16(offset + 28)
        let name = String(decoding: zip[(offset + 30)..<(offset + 30 + nameLength)], as: UTF8.self)
        result.append((name, extraLength, u16(offset + 6)))
        offset += 30 + nameLength + extraLength + u32(offset + 18)
    }
    return result
}
