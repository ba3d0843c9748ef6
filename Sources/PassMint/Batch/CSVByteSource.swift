import Foundation

/// A CSV file's text as UTF-8 bytes, read in 64 KB chunks: UTF-8 as it is (a BOM skipped), UTF-16 (by its byte
/// order mark, or as asked) and the single-byte encodings transcoded, so the parser only ever sees UTF-8.
final class CSVByteSource {
    private let handle: FileHandle
    /// The encoding in use: the one asked for, else the one the byte order mark names, else UTF-8.
    private(set) var encoding: CSVEncoding
    private var first: [UInt8]?
    /// UTF-16 state carried across chunk boundaries: a lone byte, a high surrogate.
    private var pendingByte: UInt8?
    private var pendingHigh: UInt16?

    static let chunkSize = 65_536

    init(handle: FileHandle, encoding asked: CSVEncoding?) {
        self.handle = handle
        var chunk = [UInt8](handle.readData(ofLength: Self.chunkSize))
        var detected = asked ?? .utf8
        if chunk.starts(with: [0xEF, 0xBB, 0xBF]), asked == nil || asked == .utf8 {
            chunk.removeFirst(3)
        } else if chunk.starts(with: [0xFF, 0xFE]), asked == nil || asked == .utf16LE {
            detected = .utf16LE
            chunk.removeFirst(2)
        } else if chunk.starts(with: [0xFE, 0xFF]), asked == nil || asked == .utf16BE {
            detected = .utf16BE
            chunk.removeFirst(2)
        }
        encoding = detected
        first = chunk
    }

    /// The next chunk of UTF-8, nil at the end of the file. A chunk may be empty (one byte of UTF-16 only).
    func next() -> [UInt8]? {
        let raw: [UInt8]
        if let first {
            raw = first
            self.first = nil
            if raw.isEmpty { return finish() }
        } else {
            let data = handle.readData(ofLength: Self.chunkSize)
            if data.isEmpty { return finish() }
            raw = [UInt8](data)
        }
        switch encoding {
        case .utf8: return raw
        case .latin1: return Self.singleByte(raw) { UInt32($0) }
        case .windows1252: return Self.singleByte(raw, Self.windows1252)
        case .utf16LE, .utf16BE: return utf16(raw)
        }
    }

    /// At the end: a UTF-16 file cut in the middle of a character ends with U+FFFD, once.
    private func finish() -> [UInt8]? {
        guard pendingByte != nil || pendingHigh != nil else { return nil }
        pendingByte = nil
        pendingHigh = nil
        var out: [UInt8] = []
        Self.append(0xFFFD, to: &out)
        return out
    }

    private func utf16(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = 0
        let littleEndian = encoding == .utf16LE
        func unit(_ a: UInt8, _ b: UInt8) -> UInt16 {
            littleEndian ? UInt16(a) | UInt16(b) << 8 : UInt16(a) << 8 | UInt16(b)
        }
        var units: [UInt16] = []
        units.reserveCapacity(raw.count / 2 + 1)
        if let byte = pendingByte, !raw.isEmpty {
            units.append(unit(byte, raw[0]))
            pendingByte = nil
            index = 1
        }
        while index + 1 < raw.count {
            units.append(unit(raw[index], raw[index + 1]))
            index += 2
        }
        if index < raw.count { pendingByte = raw[index] }
        for u in units {
            if let high = pendingHigh {
                pendingHigh = nil
                if (0xDC00...0xDFFF).contains(u) {
                    Self.append(0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(u - 0xDC00), to: &out)
                    continue
                }
                Self.append(0xFFFD, to: &out)
            }
            switch u {
            case 0xD800...0xDBFF: pendingHigh = u
            case 0xDC00...0xDFFF: Self.append(0xFFFD, to: &out)
            default: Self.append(UInt32(u), to: &out)
            }
        }
        return out
    }

    private static func singleByte(_ raw: [UInt8], _ map: (UInt8) -> UInt32) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count + raw.count / 8)
        for byte in raw {
            if byte < 0x80 { out.append(byte) } else { append(map(byte), to: &out) }
        }
        return out
    }

    /// Windows-1252: Latin-1 except 0x80-0x9F (the five unassigned bytes map to the C1 controls, as WHATWG does).
    private static func windows1252(_ byte: UInt8) -> UInt32 {
        guard (0x80...0x9F).contains(byte) else { return UInt32(byte) }
        return windows1252High[Int(byte - 0x80)]
    }

    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x9D, 0x017E, 0x0178,
    ]

    static func append(_ scalar: UInt32, to out: inout [UInt8]) {
        let value = Unicode.Scalar(scalar) ?? "\u{FFFD}"
        out.append(contentsOf: UTF8.encode(value)!)
    }
}

extension CSVByteSource {
    /// The offset and value of the first byte of `bytes` that is not valid UTF-8, nil when all of it is.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> (offset: Int, byte: UInt8)? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return (offset, bytes[offset])
            }
        }
    }
}
