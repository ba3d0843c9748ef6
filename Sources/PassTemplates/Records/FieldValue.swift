/// Checks and normalises one value for a field's kind.
enum FieldValue {
    /// The normalised text of `raw` for `field`, or a description of the expected form.
    static func normalize(_ raw: String, for field: TemplateField) -> Result<String, Expected> {
        switch field.kind {
        case .string, .image:
            return .success(raw)
        case .integer:
            return integer(trimmed(raw)).map(Result.success) ?? .failure(Expected("a whole number such as 1200"))
        case .decimal:
            return decimal(trimmed(raw)).map(Result.success)
                ?? .failure(Expected("a decimal number such as 12.50 (digits, one '.' as decimal separator)"))
        case .date:
            return date(trimmed(raw)).map(Result.success)
                ?? .failure(
                    Expected(
                        "an ISO 8601 date such as 2027-06-12T19:30:00+02:00, 2027-06-12T19:30Z or 2027-06-12"))
        case .enum:
            if field.values.contains(raw) { return .success(raw) }
            let list = field.values.map { "\"\($0)\"" }.joined(separator: ", ")
            var text = "one of \(list)"
            if let near = field.values.first(where: { $0.lowercased() == raw.lowercased() })
                ?? NearMiss.suggestion(for: raw, in: field.values)
            {
                text += " (did you mean \"\(near)\"?)"
            }
            return .failure(Expected(text))
        }
    }

    /// True when the normalised number `value` lies within the field's bounds (always for other kinds).
    static func isWithinBounds(_ value: String, of field: TemplateField) -> Bool {
        guard field.isNumber, field.minimum != nil || field.maximum != nil else { return true }
        // The usual case, integers on both sides, compares as Int64 without building decimals (checked per record).
        if let number = Int64(value), let low = field.minimum.map({ Int64($0) }) ?? Int64.min,
            let high = field.maximum.map({ Int64($0) }) ?? Int64.max
        {
            return low <= number && number <= high
        }
        guard let number = DecimalNumber(value) else { return true }
        if let low = field.minimum.flatMap(DecimalNumber.init), DecimalNumber.compare(number, low) < 0 { return false }
        if let high = field.maximum.flatMap(DecimalNumber.init), DecimalNumber.compare(number, high) > 0 {
            return false
        }
        return true
    }

    struct Expected: Error, Equatable {
        let text: String
        init(_ text: String) { self.text = text }
    }

    static func trimmed(_ s: String) -> Substring {
        var sub = Substring(s)
        while let f = sub.first, f == " " || f == "\t" { sub.removeFirst() }
        while let l = sub.last, l == " " || l == "\t" { sub.removeLast() }
        return sub
    }

    static func isDigits<S: StringProtocol>(_ s: S) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// `[+-]?digits` within Int64 → canonical decimal text.
    static func integer(_ s: Substring) -> String? {
        var body = s
        if body.first == "+" { body.removeFirst() }
        let digits = body.first == "-" ? body.dropFirst() : body
        guard isDigits(digits), let v = Int64(body) else { return nil }
        return String(v)
    }

    /// `[+-]?(digits[.digits*] | .digits)` → text without `+`, leading zeros or a trailing `.`;
    /// the fraction is kept as written (12.50 stays 12.50).
    static func decimal(_ s: Substring) -> String? {
        if isCanonicalDecimal(s.utf8) { return String(s) }
        var body = s
        var negative = false
        if body.first == "+" || body.first == "-" { negative = body.removeFirst() == "-" }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty) else { return nil }
        guard whole.isEmpty || isDigits(whole), fraction.isEmpty || isDigits(fraction) else { return nil }
        while whole.count > 1, whole.first == "0" { whole.removeFirst() }
        if whole.isEmpty { whole = "0" }
        let isZero = whole == "0" && fraction.allSatisfy { $0 == "0" }
        let text = (negative && !isZero ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
        guard let d = Double(text), d.isFinite else { return nil }
        return text
    }

    /// Whether `decimal` would return `s` as it is: digits without a superfluous leading zero, at most one `.`
    /// with digits after it, and short enough to be finite (checked per record, so without building text).
    private static func isCanonicalDecimal(_ s: Substring.UTF8View) -> Bool {
        guard let first = s.first, s.count <= 300, first >= 0x30, first <= 0x39 else { return false }
        var sawPoint = false
        var wholeDigits = 0
        var fractionDigits = 0
        for byte in s {
            if byte == UInt8(ascii: ".") {
                guard !sawPoint else { return false }
                sawPoint = true
            } else if byte >= 0x30, byte <= 0x39 {
                if sawPoint { fractionDigits += 1 } else { wholeDigits += 1 }
            } else {
                return false
            }
        }
        return (first != 0x30 || wholeDigits == 1) && (!sawPoint || fractionDigits > 0)
    }

    /// `YYYY-MM-DD` (→ `T00:00:00Z`) or `YYYY-MM-DDTHH:MM[:SS](Z|±HH:MM|±HHMM)` →
    /// `YYYY-MM-DDTHH:MM:SS` + `Z` or `±HH:MM` (a zero offset becomes `Z`).
    static func date(_ s: Substring) -> String? {
        let u = Array(s.utf8)
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= u.count else { return nil }
            var v = 0
            for b in u[from..<from + count] {
                guard b >= 0x30, b <= 0x39 else { return nil }
                v = v * 10 + Int(b - 0x30)
            }
            return v
        }
        func at(_ i: Int, _ c: Character) -> Bool { i < u.count && u[i] == c.asciiValue! }
        guard let year = num(0, 4), at(4, "-"), let month = num(5, 2), at(7, "-"), let day = num(8, 2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let datePart = String(decoding: u[0..<10], as: UTF8.self)
        if u.count == 10 { return datePart + "T00:00:00Z" }
        guard at(10, "T"), let hour = num(11, 2), at(13, ":"), let minute = num(14, 2), hour < 24, minute < 60
        else { return nil }
        var i = 16
        var second = 0
        if at(i, ":") {
            guard let s = num(i + 1, 2), s < 60 else { return nil }
            second = s
            i += 3
        }
        let zone: String
        if at(i, "Z"), i + 1 == u.count {
            zone = "Z"
        } else if at(i, "+") || at(i, "-"), let oh = num(i + 1, 2) {
            var om: Int?
            if at(i + 3, ":"), i + 6 == u.count { om = num(i + 4, 2) } else if i + 5 == u.count { om = num(i + 3, 2) }
            guard let om, oh <= 14, om < 60 else { return nil }
            zone = oh == 0 && om == 0 ? "Z" : "\(at(i, "+") ? "+" : "-")\(two(oh)):\(two(om))"
        } else {
            return nil
        }
        return "\(datePart)T\(two(hour)):\(two(minute)):\(two(second))\(zone)"
    }

    static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
