import Foundation

/// Photos made at test time with ImageMagick and the vips CLI (never committed binaries), in a folder removed
/// when the value goes away.
public final class PhotoFolder: Sendable {
    private let folder: TempDir
    public var path: String { folder.path }

    public init() throws {
        folder = try TempDir()
    }

    /// Runs a tool found on PATH in the folder (the shared runner); throws with its stderr when it fails.
    public func run(_ tool: String, _ args: [String]) throws {
        let result = try CLI.run(tool, args, cwd: folder.url)
        guard result.status == 0 else {
            throw PhotoToolFailure(description: "\(tool) \(args): \(result.stderr)")
        }
    }

    /// `convert -size WxH plasma: -quality 85 NAME` (a JPEG or PNG by extension).
    @discardableResult
    public func plasma(_ name: String, _ width: Int, _ height: Int) throws -> String {
        try run("convert", ["-size", "\(width)x\(height)", "plasma:", "-quality", "85", name])
        return name
    }

    public func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: "\(path)/\(name)"))
    }

    /// A real PNG (valid CRCs) whose IHDR declares `width`×`height` with a few bytes of compressed zeros: a
    /// decompression bomb that is refused from its header.
    public static func pngBomb(width: Int, height: Int) -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(data.count) + body + be32(Int(crc32(body)))
        }
        let ihdr = be32(width) + be32(height) + [8, 0, 0, 0, 0]  // 8-bit grey
        // A zlib stream of one empty stored block: enough for a header reader, nothing for a decoder to expand.
        let idat: [UInt8] = [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01]
        return pngSignature + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    /// CRC-32 (ISO-HDLC) as PNG chunks use it.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}

public struct PhotoToolFailure: Error, CustomStringConvertible {
    public let description: String
}
