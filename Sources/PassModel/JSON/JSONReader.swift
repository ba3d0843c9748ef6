/// Something the lenient reader accepted that a strict JSON reader (and Wallet) rejects.
public struct JSONLeniency: Sendable, Hashable, CustomStringConvertible {
    /// What was accepted.
    public enum Kind: String, Sendable {
        case trailingComma = "trailing comma"
        case lineComment = "// comment"
        case blockComment = "/* */ comment"
        case missingComma = "missing comma"
        case controlCharacterInString = "unescaped control character (e.g. a line break) inside a string"
        case byteOrderMark = "byte order mark"
        case duplicateKey = "duplicate key"
    }
    public let kind: Kind
    public let line: Int
    public let column: Int
    /// JSON path of the enclosing value, e.g. `storeCard.backFields[1]`.
    public let path: String

    public var description: String {
        "\(kind.rawValue) at line \(line), column \(column)" + (path.isEmpty ? "" : " (\(path))")
    }
}

/// A parse failure with its position.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let column: Int
    public let message: String

    public var description: String {
        "\(file):\(line):\(column): invalid JSON: \(message); fix the file so it is valid JSON"
    }
}

/// A parsed document plus everything the lenient reader had to forgive.
public struct JSONDocument: Sendable {
    public let value: JSONValue
    public let leniencies: [JSONLeniency]
    /// True when a strict RFC 8259 reader accepts the input as is.
    public var isStrict: Bool { leniencies.isEmpty }
}

/// Lenient JSON reader: accepts trailing commas, `//` and `/* */` comments, missing commas between members,
/// raw line breaks inside strings, a UTF-8 BOM and duplicate keys (last wins) — and reports each one.
public enum JSONReader {
    /// Parses `bytes`. `file` names the input in errors.
    /// - Throws: `JSONSyntaxError` with line and column when the input is not JSON even leniently.
    public static func parse(_ bytes: [UInt8], file: String = "<input>") throws(JSONSyntaxError) -> JSONDocument {
        var parser = Parser(bytes: bytes, file: file)
        let value = try parser.parseDocument()
        return JSONDocument(value: value, leniencies: parser.leniencies)
    }

    /// Parses a String.
    public static func parse(_ text: String, file: String = "<input>") throws(JSONSyntaxError) -> JSONDocument {
        try parse(Array(text.utf8), file: file)
    }
}

private struct Parser {
    let bytes: [UInt8]
    let file: String
    var pos = 0
    var line = 1
    var lineStart = 0
    var leniencies: [JSONLeniency] = []
    var depth = 0

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    var column: Int { pos - lineStart + 1 }

    func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(file: file, line: line, column: column, message: message)
    }

    mutating func note(_ kind: JSONLeniency.Kind, _ path: String) {
        leniencies.append(JSONLeniency(kind: kind, line: line, column: column, path: path))
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            note(.byteOrderMark, "")
            pos = 3
            lineStart = 3
        }
        try skipSpace(path: "")
        let value = try parseValue(path: "")
        try skipSpace(path: "")
        guard pos == bytes.count else { throw error("unexpected text after the end of the document") }
        return value
    }

    mutating func skipSpace(path: String) throws(JSONSyntaxError) {
        while pos < bytes.count {
            let b = bytes[pos]
            if b == 0x0A {
                pos += 1; line += 1; lineStart = pos
            } else if b == 0x20 || b == 0x09 || b == 0x0D {
                pos += 1
            } else if b == UInt8(ascii: "/"), pos + 1 < bytes.count, bytes[pos + 1] == UInt8(ascii: "/") {
                note(.lineComment, path)
                while pos < bytes.count, bytes[pos] != 0x0A { pos += 1 }
            } else if b == UInt8(ascii: "/"), pos + 1 < bytes.count, bytes[pos + 1] == UInt8(ascii: "*") {
                note(.blockComment, path)
                pos += 2
                while true {
                    guard pos + 1 < bytes.count else { throw error("unterminated /* comment") }
                    if bytes[pos] == UInt8(ascii: "*"), bytes[pos + 1] == UInt8(ascii: "/") { pos += 2; break }
                    if bytes[pos] == 0x0A { line += 1; lineStart = pos + 1 }
                    pos += 1
                }
            } else {
                return
            }
        }
    }

    mutating func parseValue(path: String) throws(JSONSyntaxError) -> JSONValue {
        guard pos < bytes.count else { throw error("unexpected end of input, a value was expected") }
        switch bytes[pos] {
        case UInt8(ascii: "{"): return try parseObject(path: path)
        case UInt8(ascii: "["): return try parseArray(path: path)
        case UInt8(ascii: "\""): return .string(try parseString(path: path))
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default:
            throw error("unexpected character '\(String(decoding: [bytes[pos]], as: UTF8.self))', a value was expected")
        }
    }

    mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let w = Array(word.utf8)
        guard pos + w.count <= bytes.count, Array(bytes[pos..<pos + w.count]) == w else {
            throw error("unexpected word, did you mean \(word)? (strings need double quotes)")
        }
        pos += w.count
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > 512 { throw error("nesting deeper than 512 levels") }
    }

    mutating func parseObject(path: String) throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        pos += 1
        var members: [String: JSONValue] = [:]
        var expectMember = true
        var sawComma = false
        while true {
            try skipSpace(path: path)
            guard pos < bytes.count else { throw error("unterminated object: a '}' is missing") }
            let b = bytes[pos]
            if b == UInt8(ascii: "}") {
                if sawComma { note(.trailingComma, path) }
                pos += 1
                return .object(members)
            }
            if !expectMember {
                if b == UInt8(ascii: "\"") {
                    note(.missingComma, path)
                } else {
                    throw error("expected ',' or '}' in object")
                }
            }
            guard b == UInt8(ascii: "\"") else { throw error("expected a quoted member name") }
            let key = try parseString(path: path)
            try skipSpace(path: path)
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else {
                throw error("expected ':' after member name \"\(key)\"")
            }
            pos += 1
            try skipSpace(path: path)
            let childPath = JSONPath.member(path, key)
            let value = try parseValue(path: childPath)
            if members.updateValue(value, forKey: key) != nil { note(.duplicateKey, childPath) }
            try skipSpace(path: path)
            sawComma = false
            expectMember = false
            if pos < bytes.count, bytes[pos] == UInt8(ascii: ",") {
                pos += 1
                sawComma = true
                expectMember = true
            }
        }
    }

    mutating func parseArray(path: String) throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        pos += 1
        var items: [JSONValue] = []
        var expectItem = true
        var sawComma = false
        while true {
            try skipSpace(path: path)
            guard pos < bytes.count else { throw error("unterminated array: a ']' is missing") }
            if bytes[pos] == UInt8(ascii: "]") {
                if sawComma { note(.trailingComma, path) }
                pos += 1
                return .array(items)
            }
            if !expectItem {
                let b = bytes[pos]
                if b == UInt8(ascii: "{") || b == UInt8(ascii: "\"") || b == UInt8(ascii: "[") {
                    note(.missingComma, path)
                } else {
                    throw error("expected ',' or ']' in array")
                }
            }
            items.append(try parseValue(path: JSONPath.index(path, items.count)))
            try skipSpace(path: path)
            sawComma = false
            expectItem = false
            if pos < bytes.count, bytes[pos] == UInt8(ascii: ",") {
                pos += 1
                sawComma = true
                expectItem = true
            }
        }
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = pos
        var isInteger = true
        if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        func digits(_ p: inout Int, _ b: [UInt8]) -> Int {
            let s = p
            while p < b.count, b[p] >= 0x30, b[p] <= 0x39 { p += 1 }
            return p - s
        }
        guard digits(&pos, bytes) > 0 else { throw error("a number needs digits") }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            isInteger = false
            pos += 1
            guard digits(&pos, bytes) > 0 else { throw error("digits expected after the decimal point") }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            isInteger = false
            pos += 1
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard digits(&pos, bytes) > 0 else { throw error("digits expected in the exponent") }
        }
        let text = String(decoding: bytes[start..<pos], as: UTF8.self)
        if isInteger, let i = Int64(text) { return .integer(i) }
        guard let d = Double(text), d.isFinite else { throw error("number \(text) is out of range") }
        return .double(d)
    }

    mutating func parseString(path: String) throws(JSONSyntaxError) -> String {
        pos += 1
        var out: [UInt8] = []
        var notedControl = false
        while true {
            guard pos < bytes.count else { throw error("unterminated string: a closing '\"' is missing") }
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") { pos += 1; break }
            if b == UInt8(ascii: "\\") {
                pos += 1
                guard pos < bytes.count else { throw error("unterminated escape sequence") }
                let e = bytes[pos]
                pos += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"),
                            bytes[pos + 1] == UInt8(ascii: "u")
                        else { throw error("lone UTF-16 high surrogate in \\u escape") }
                        pos += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("invalid UTF-16 surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("lone UTF-16 low surrogate in \\u escape")
                    }
                    out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                default:
                    throw error("invalid escape \\\(String(decoding: [e], as: UTF8.self))")
                }
                continue
            }
            if b < 0x20 {
                if !notedControl { note(.controlCharacterInString, path); notedControl = true }
                if b == 0x0A { line += 1; lineStart = pos + 1 }
            }
            out.append(b)
            pos += 1
        }
        guard let s = String(validating: out, as: UTF8.self) else {
            throw error("string is not valid UTF-8; save the file as UTF-8")
        }
        return s
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard pos + 4 <= bytes.count else { throw error("\\u escape needs four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[pos]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw error("\\u escape needs four hex digits")
            }
            v = v << 4 | d
            pos += 1
        }
        return v
    }
}
