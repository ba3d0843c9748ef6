/// Reading and writing `xx.lproj/pass.strings` (the `"key" = "value";` strings-file format).
public enum PassStrings {
    /// Reads a pass.strings file: UTF-8 (with or without BOM) or UTF-16 LE/BE with a BOM. BOM-less UTF-16 is
    /// rejected (Wallet cannot tell it apart reliably). Syntax: `"key" = "value";` entries, `/* */` and `//`
    /// comments, escapes `\"` `\\` `\n` `\t` `\r` `\uXXXX` (also `\UXXXX`); keys and values may also be
    /// unquoted words of letters, digits and `_$+/:.-`.
    /// - Parameters:
    ///   - bytes: the file's bytes.
    ///   - file: the path used in error messages.
    /// - Returns: the entries in file order (a repeated key appears twice; the last one is what Wallet uses).
    /// - Throws: `TemplateError.invalidStrings` naming the file and line.
    public static func parse(_ bytes: [UInt8], file: String) throws(TemplateError) -> [(key: String, value: String)] {
        let text = try decode(bytes, file: file)
        var parser = StringsParser(scalars: Array(text.unicodeScalars), file: file)
        return try parser.parseEntries()
    }

    /// Writes entries as UTF-16LE with a byte order mark (Apple's stated encoding), one `"key" = "value";` per
    /// line, in the given order, with `"` `\` and control characters escaped.
    public static func serialize(_ entries: [(key: String, value: String)]) -> [UInt8] {
        var text = ""
        for entry in entries {
            text += "\"\(escape(entry.key))\" = \"\(escape(entry.value))\";\n"
        }
        var out: [UInt8] = [0xFF, 0xFE]
        out.reserveCapacity(2 + text.utf16.count * 2)
        for unit in text.utf16 {
            out.append(UInt8(truncatingIfNeeded: unit))
            out.append(UInt8(truncatingIfNeeded: unit >> 8))
        }
        return out
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\U" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Detects the encoding from the BOM and decodes.
    static func decode(_ bytes: [UInt8], file: String) throws(TemplateError) -> String {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            guard let s = String(validating: bytes.dropFirst(3), as: UTF8.self) else {
                throw .invalidStrings(
                    file: file, line: 1,
                    message: "the file starts with a UTF-8 byte order mark "
                        + "but is not valid UTF-8; save it as UTF-8 or UTF-16 with a byte order mark")
            }
            return s
        }
        let littleEndian = bytes.starts(with: [0xFF, 0xFE])
        if littleEndian || bytes.starts(with: [0xFE, 0xFF]) {
            let body = bytes.dropFirst(2)
            guard body.count % 2 == 0 else {
                throw .invalidStrings(
                    file: file, line: 1,
                    message: "UTF-16 text with an odd number of bytes "
                        + "(the file is truncated or not UTF-16)")
            }
            var units: [UInt16] = []
            units.reserveCapacity(body.count / 2)
            var i = body.startIndex
            while i < body.endIndex {
                let a = UInt16(body[i]), b = UInt16(body[i + 1])
                units.append(littleEndian ? a | b << 8 : a << 8 | b)
                i += 2
            }
            guard let s = String(validating: units, as: UTF16.self) else {
                throw .invalidStrings(file: file, line: 1, message: "invalid UTF-16 (an unpaired surrogate)")
            }
            return s
        }
        if bytes.contains(0) {
            throw .invalidStrings(
                file: file, line: 1,
                message: "the file looks like UTF-16 without a byte order "
                    + "mark; save it as UTF-16 with a byte order mark, or as UTF-8")
        }
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw .invalidStrings(
                file: file, line: 1,
                message: "the file is neither UTF-8 nor UTF-16 with a byte "
                    + "order mark; save it as UTF-8 or UTF-16")
        }
        return s
    }
}

/// Recursive-descent reader over Unicode scalars, counting lines for messages.
private struct StringsParser {
    let scalars: [Unicode.Scalar]
    let file: String
    var pos = 0
    var line = 1

    init(scalars: [Unicode.Scalar], file: String) {
        self.scalars = scalars
        self.file = file
    }

    func fail(_ message: String) -> TemplateError {
        .invalidStrings(file: file, line: line, message: message)
    }

    mutating func parseEntries() throws(TemplateError) -> [(key: String, value: String)] {
        var entries: [(key: String, value: String)] = []
        while true {
            try skipTrivia()
            guard pos < scalars.count else { return entries }
            let key = try token(what: "a key")
            var tokenLine = line
            try skipTrivia()
            guard pos < scalars.count, scalars[pos] == "=" else {
                line = tokenLine
                throw fail("expected '=' after the key \"\(key)\"")
            }
            pos += 1
            try skipTrivia()
            let value = try token(what: "a value for the key \"\(key)\"")
            tokenLine = line
            try skipTrivia()
            guard pos < scalars.count, scalars[pos] == ";" else {
                line = tokenLine
                throw fail("expected ';' after the value of \"\(key)\"")
            }
            pos += 1
            entries.append((key, value))
        }
    }

    mutating func skipTrivia() throws(TemplateError) {
        while pos < scalars.count {
            let c = scalars[pos]
            if c == "\n" {
                line += 1; pos += 1
            } else if c == " " || c == "\t" || c == "\r" || c == "\u{FEFF}" {
                pos += 1
            } else if c == "/", pos + 1 < scalars.count, scalars[pos + 1] == "/" {
                while pos < scalars.count, scalars[pos] != "\n" { pos += 1 }
            } else if c == "/", pos + 1 < scalars.count, scalars[pos + 1] == "*" {
                let startLine = line
                pos += 2
                while true {
                    guard pos + 1 < scalars.count else {
                        line = startLine
                        throw fail("a /* comment is never closed with */")
                    }
                    if scalars[pos] == "*", scalars[pos + 1] == "/" { pos += 2; break }
                    if scalars[pos] == "\n" { line += 1 }
                    pos += 1
                }
            } else {
                return
            }
        }
    }

    static func isWordScalar(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "$", "+", "/", ":", ".", "-": return true
        default: return false
        }
    }

    mutating func token(what: String) throws(TemplateError) -> String {
        guard pos < scalars.count else { throw fail("unexpected end of file, expected \(what)") }
        if scalars[pos] == "\"" { return try quoted() }
        var out = String.UnicodeScalarView()
        while pos < scalars.count, Self.isWordScalar(scalars[pos]) {
            out.append(scalars[pos]); pos += 1
        }
        guard !out.isEmpty else { throw fail("expected \(what) in double quotes, found '\(scalars[pos])'") }
        return String(out)
    }

    mutating func quoted() throws(TemplateError) -> String {
        let startLine = line
        pos += 1
        var out = String.UnicodeScalarView()
        while true {
            guard pos < scalars.count else {
                line = startLine
                throw fail("a quoted string is never closed with '\"'")
            }
            let c = scalars[pos]
            pos += 1
            if c == "\"" { return String(out) }
            if c == "\n" { line += 1 }
            guard c == "\\" else { out.append(c); continue }
            guard pos < scalars.count else { throw fail("the file ends inside an escape sequence") }
            let e = scalars[pos]
            pos += 1
            switch e {
            case "\"", "\\", "'", "/": out.append(e)
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "u", "U": out.append(try unicodeEscape())
            default: throw fail("unknown escape \\\(e); write \\\\ for a backslash")
            }
        }
    }

    mutating func hex4() throws(TemplateError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard pos < scalars.count, scalars[pos].isASCII, let d = UInt32(String(scalars[pos]), radix: 16)
            else { throw fail("\\u needs four hexadecimal digits") }
            v = v << 4 | d
            pos += 1
        }
        return v
    }

    mutating func unicodeEscape() throws(TemplateError) -> Unicode.Scalar {
        var value = try hex4()
        if (0xD800..<0xDC00).contains(value) {
            guard pos + 1 < scalars.count, scalars[pos] == "\\", scalars[pos + 1] == "u" || scalars[pos + 1] == "U"
            else { throw fail("\\u escape of a lone UTF-16 high surrogate") }
            pos += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("\\u escapes form an invalid surrogate pair") }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw fail("\\u escape of a lone UTF-16 low surrogate") }
        return scalar
    }
}
