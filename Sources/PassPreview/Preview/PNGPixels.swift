internal import CDeflate
import PassMint

/// The average colour of a PNG, decoded with libdeflate: what poster styles derive their automatic colours from
/// and what lint measures text contrast against when text sits on a strip or artwork. Handles the 8-bit,
/// non-interlaced PNGs pass images are (grey, grey+alpha, RGB, RGBA, palette); anything else gives nil and
/// callers fall back to the background colour.
public struct PNGPixels: Sendable {
    public var width: Int
    public var height: Int
    /// RGBA, 4 bytes per pixel, rows top to bottom.
    public var rgba: [UInt8]

    /// Decodes `bytes`, or nil when they are not a PNG this reader handles.
    public init?(_ bytes: [UInt8]) {
        guard let size = ImageInfo.pngSize(bytes), bytes.count > 33 else { return nil }
        let depth = bytes[24]
        let colorType = bytes[25]
        let interlace = bytes[28]
        guard depth == 8, interlace == 0, [0, 2, 3, 4, 6].contains(colorType) else { return nil }
        var idat: [UInt8] = []
        var palette: [UInt8] = []
        var transparency: [UInt8] = []
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let start = offset + 8
            guard start + length <= bytes.count else { return nil }
            switch type {
            case "IDAT": idat += bytes[start..<start + length]
            case "PLTE": palette = Array(bytes[start..<start + length])
            case "tRNS": transparency = Array(bytes[start..<start + length])
            case "IEND": offset = bytes.count
            default: break
            }
            offset = start + length + 4
        }
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)]!
        let stride = size.width * channels
        let expected = (stride + 1) * size.height
        guard expected < 256 << 20, let raw = Self.inflate(idat, size: expected) else { return nil }
        var rows = [UInt8](repeating: 0, count: stride * size.height)
        for y in 0..<size.height {
            let filter = raw[y * (stride + 1)]
            for x in 0..<stride {
                let value = raw[y * (stride + 1) + 1 + x]
                let left = x >= channels ? Int(rows[y * stride + x - channels]) : 0
                let up = y > 0 ? Int(rows[(y - 1) * stride + x]) : 0
                let upLeft = (x >= channels && y > 0) ? Int(rows[(y - 1) * stride + x - channels]) : 0
                let predicted: Int
                switch filter {
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4:
                    let p = left + up - upLeft
                    let (pa, pb, pc) = (abs(p - left), abs(p - up), abs(p - upLeft))
                    predicted = pa <= pb && pa <= pc ? left : (pb <= pc ? up : upLeft)
                default: predicted = 0
                }
                rows[y * stride + x] = UInt8((Int(value) + predicted) & 0xFF)
            }
        }
        var out = [UInt8](repeating: 255, count: size.width * size.height * 4)
        for i in 0..<(size.width * size.height) {
            let p = i * channels
            switch colorType {
            case 0: (out[i * 4], out[i * 4 + 1], out[i * 4 + 2]) = (rows[p], rows[p], rows[p])
            case 4:
                (out[i * 4], out[i * 4 + 1], out[i * 4 + 2], out[i * 4 + 3]) = (rows[p], rows[p], rows[p], rows[p + 1])
            case 2: (out[i * 4], out[i * 4 + 1], out[i * 4 + 2]) = (rows[p], rows[p + 1], rows[p + 2])
            case 6:
                (out[i * 4], out[i * 4 + 1], out[i * 4 + 2], out[i * 4 + 3]) =
                    (rows[p], rows[p + 1], rows[p + 2], rows[p + 3])
            default:
                let index = Int(rows[p])
                guard index * 3 + 2 < palette.count else { continue }
                (out[i * 4], out[i * 4 + 1], out[i * 4 + 2]) =
                    (palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2])
                if index < transparency.count { out[i * 4 + 3] = transparency[index] }
            }
        }
        width = size.width
        height = size.height
        rgba = out
    }

    /// The average colour of the rows `top..<bottom` (fractions of the height, 0…1), alpha-weighted; nil when
    /// the region is fully transparent.
    public func averageColor(top: Double = 0, bottom: Double = 1) -> RGB? {
        let y0 = max(0, min(height - 1, Int(Double(height) * top)))
        let y1 = max(y0 + 1, min(height, Int((Double(height) * bottom).rounded(.up))))
        var sums = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
        for y in y0..<y1 {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let a = Double(rgba[i + 3]) / 255
                sums.r += Double(rgba[i]) * a
                sums.g += Double(rgba[i + 1]) * a
                sums.b += Double(rgba[i + 2]) * a
                sums.a += a
            }
        }
        guard sums.a > 0 else { return nil }
        return RGB(UInt8(sums.r / sums.a), UInt8(sums.g / sums.a), UInt8(sums.b / sums.a))
    }

    /// The pixel at (x, y).
    public func pixel(_ x: Int, _ y: Int) -> RGB {
        let i = (y * width + x) * 4
        return RGB(rgba[i], rgba[i + 1], rgba[i + 2])
    }

    private static func inflate(_ data: [UInt8], size: Int) -> [UInt8]? {
        guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        var out = [UInt8](repeating: 0, count: size)
        var actual = 0
        let result = data.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                libdeflate_zlib_decompress(
                    decompressor, input.baseAddress, input.count, output.baseAddress, size, &actual)
            }
        }
        return result == LIBDEFLATE_SUCCESS && actual == size ? out : nil
    }
}
