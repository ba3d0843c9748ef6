/// The strict writer: RFC 8259 JSON, keys sorted, two-space indentation, UTF-8, no trailing newline variance.
public enum JSONWriter {
    /// Serialises `value`. Output is a pure function of the value (sorted keys), so equal values give equal bytes.
    /// - Parameter pretty: indent with two spaces and newlines (default) or write compactly.
    public static func serialize(_ value: JSONValue, pretty: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(value, into: &out, pretty: pretty, depth: 0)
        if pretty { out.append(0x0A) }
        return out
    }

    /// Serialises `value` as a String.
    public static func string(_ value: JSONValue, pretty: Bool = true) -> String {
        String(decoding: serialize(value, pretty: pretty), as: UTF8.self)
    }

    /// Appends `value` written compactly (a number, string, boolean or null is written the same either way).
    public static func append(_ value: JSONValue, to out: inout [UInt8]) {
        write(value, into: &out, pretty: false, depth: 0)
    }

    private static func newline(_ out: inout [UInt8], pretty: Bool, depth: Int) {
        guard pretty else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: depth * 2))
    }

    private static func write(_ value: JSONValue, into out: inout [UInt8], pretty: Bool, depth: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): out.append(contentsOf: formatDouble(d).utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            if items.isEmpty { out.append(UInt8(ascii: "]")); return }
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, pretty: pretty, depth: depth + 1)
                write(item, into: &out, pretty: pretty, depth: depth + 1)
            }
            newline(&out, pretty: pretty, depth: depth)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            if members.isEmpty { out.append(UInt8(ascii: "}")); return }
            for (i, member) in members.sorted(by: { utf8Less($0.key, $1.key) }).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, pretty: pretty, depth: depth + 1)
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(0x20) }
                write(member.value, into: &out, pretty: pretty, depth: depth + 1)
            }
            newline(&out, pretty: pretty, depth: depth)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Byte-wise UTF-8 ordering: the same order every JSON tool and `sort` in the C locale gives.
    static func utf8Less(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    static func formatDouble(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    /// Appends `s` as a JSON string literal: quoted, with `"`, `\\` and control characters escaped.
    public static func writeString(_ s: String, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { bytes in
            out.append(UInt8(ascii: "\""))
            // Runs that need no escape (nearly every string) are copied whole.
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                appendEscape(byte, to: &out)
                runStart = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            out.append(UInt8(ascii: "\""))
        }
    }

    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
        case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
        default:
            out.append(contentsOf: [
                0x5C, UInt8(ascii: "u"), 0x30, 0x30, Hex.digits[Int(byte >> 4)], Hex.digits[Int(byte & 0xF)],
            ])
        }
    }
}
