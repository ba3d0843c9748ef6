import Foundation

/// Photos made at test time with ImageMagick and the vips CLI (never committed binaries), written where a test
/// wants them. `PhotoFolder` is the same in a folder of its own.
public enum TestPhotos {
    /// `convert -size WxH plasma: -quality 85 PATH` (a JPEG or PNG by extension).
    public static func plasma(_ path: String, _ width: Int, _ height: Int, cwd: URL? = nil) throws {
        try CLI.check("convert", ["-size", "\(width)x\(height)", "plasma:", "-quality", "85", path], cwd: cwd)
    }

    /// `count` different JPEGs `prefix-000.jpg`… in `folder`: tiles of one plasma image (one ImageMagick run).
    public static func distinctJPEGs(count: Int, in folder: String, prefix: String = "p") throws {
        let columns = 40
        let rows = (count + columns - 1) / columns
        try CLI.check(
            "convert",
            [
                "-size", "\(columns * 50)x\(rows * 40)", "plasma:", "-crop", "50x40", "+repage",
                "-quality", "85", "\(folder)/\(prefix)-%03d.jpg",
            ])
    }

    /// A 60-megapixel PNG, written streaming by vips (small on disk, honest dimensions).
    public static func sixtyMegapixelPNG(_ path: String) throws {
        try CLI.check("vips", ["black", path, "10000", "6000", "--bands", "3"])
    }

    /// A real PNG (valid CRCs) whose IHDR declares `width`×`height` with a few bytes of compressed zeros: a
    /// decompression bomb that is refused from its header.
    public static func pngBomb(width: Int = 100_000, height: Int = 100_000) -> [UInt8] {
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

    /// Writes `pngBomb(width:height:)` (100000×100000 unless told) to `path`.
    public static func writePNGBomb(_ path: String, width: Int = 100_000, height: Int = 100_000) throws {
        try Data(pngBomb(width: width, height: height)).write(to: URL(fileURLWithPath: path))
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

/// Test photos in a folder of their own, removed when the value goes away.
public final class PhotoFolder: Sendable {
    private let folder: TempDir
    public var path: String { folder.path }

    public init() throws {
        folder = try TempDir()
    }

    /// Runs a tool found on PATH in the folder; throws with its stderr when it fails.
    public func run(_ tool: String, _ args: [String]) throws {
        try CLI.check(tool, args, cwd: folder.url)
    }

    /// `TestPhotos.plasma` as `name` in the folder.
    @discardableResult
    public func plasma(_ name: String, _ width: Int, _ height: Int) throws -> String {
        try TestPhotos.plasma(name, width, height, cwd: folder.url)
        return name
    }

    public func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: "\(path)/\(name)"))
    }
}
