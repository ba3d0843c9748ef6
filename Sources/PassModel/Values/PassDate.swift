/// A W3C / ISO 8601 timestamp as Wallet wants it: date, hours and minutes (seconds and fraction optional)
/// and a time zone (`Z`, `±hh:mm` or `±hhmm`), e.g. `2026-07-22T14:25-08:00`.
public struct PassDate: Sendable, Hashable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int
    public var hour: Int, minute: Int, second: Int
    /// Fractional seconds as written (digits after the dot), empty when absent.
    public var fraction: String
    /// Offset from UTC in seconds (east positive).
    public var utcOffsetSeconds: Int

    /// Parses a complete timestamp; nil when anything is missing or out of range.
    /// Use `problem(with:)` to learn why.
    public init?(parsing text: String) {
        guard case .success(let d) = Self.parse(text) else { return nil }
        self = d
    }

    /// Why `text` is not a complete ISO 8601 timestamp with time and zone, or nil when it is one.
    public static func problem(with text: String) -> String? {
        if case .failure(let reason) = parse(text) { return reason.message }
        return nil
    }

    /// Seconds since 1970-01-01T00:00Z (fraction ignored).
    public var epochSeconds: Int64 {
        let days = CivilCalendar.days(year: Int64(year), month: Int64(month), day: Int64(day))
        return days * 86400 + Int64(hour * 3600 + minute * 60 + second) - Int64(utcOffsetSeconds)
    }

    public var description: String {
        func pad(_ v: Int, _ n: Int = 2) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        let frac = fraction.isEmpty ? "" : ".\(fraction)"
        let zone: String
        if utcOffsetSeconds == 0 {
            zone = "Z"
        } else {
            let a = abs(utcOffsetSeconds)
            zone = (utcOffsetSeconds < 0 ? "-" : "+") + pad(a / 3600) + ":" + pad(a % 3600 / 60)
        }
        return "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second))\(frac)\(zone)"
    }

    struct Reason: Error {
        let message: String
    }

    static func parse(_ text: String) -> Result<PassDate, Reason> {
        let c = Array(text.utf8)
        var i = 0
        func num(_ n: Int) -> Int? {
            guard i + n <= c.count else { return nil }
            var v = 0
            for k in i..<i + n {
                guard c[k] >= 0x30, c[k] <= 0x39 else { return nil }
                v = v * 10 + Int(c[k] - 0x30)
            }
            i += n
            return v
        }
        func take(_ ch: Character) -> Bool {
            guard i < c.count, c[i] == ch.asciiValue! else { return false }
            i += 1
            return true
        }
        let example = "write it like 2026-07-22T14:25:00-08:00 (date, T, hours:minutes, time zone)"
        guard let year = num(4), take("-"), let month = num(2), take("-"), let day = num(2) else {
            return .failure(Reason(message: "\"\(text)\" is not an ISO 8601 date; \(example)"))
        }
        guard (1...12).contains(month), (1...daysIn(month, year)).contains(day) else {
            return .failure(Reason(message: "\"\(text)\" is not a real calendar date; \(example)"))
        }
        guard i < c.count else {
            return .failure(
                Reason(message: "\"\(text)\" has no time; Wallet needs hours and minutes and a time zone, \(example)"))
        }
        guard take("T"), let hour = num(2), take(":"), let minute = num(2) else {
            return .failure(Reason(message: "\"\(text)\" has no valid time after the date; \(example)"))
        }
        var second = 0
        var fraction = ""
        if take(":") {
            guard let s = num(2) else {
                return .failure(Reason(message: "\"\(text)\" has malformed seconds; \(example)"))
            }
            second = s
            if take(".") {
                let start = i
                while i < c.count, c[i] >= 0x30, c[i] <= 0x39 { i += 1 }
                guard i > start else {
                    return .failure(Reason(message: "\"\(text)\" has a '.' without digits; \(example)"))
                }
                fraction = String(decoding: c[start..<i], as: UTF8.self)
            }
        }
        guard hour <= 23, minute <= 59, second <= 60 else {
            return .failure(Reason(message: "\"\(text)\" has an impossible time of day; \(example)"))
        }
        var offset = 0
        if take("Z") {
            offset = 0
        } else if i < c.count, c[i] == UInt8(ascii: "+") || c[i] == UInt8(ascii: "-") {
            let sign = c[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = num(2) else {
                return .failure(Reason(message: "\"\(text)\" has a malformed time zone; \(example)"))
            }
            _ = take(":")
            guard let om = num(2), oh <= 23, om <= 59 else {
                return .failure(Reason(message: "\"\(text)\" has a malformed time zone (use ±hh:mm); \(example)"))
            }
            offset = sign * (oh * 3600 + om * 60)
        } else if i == c.count {
            return .failure(
                Reason(message: "\"\(text)\" has no time zone; add Z or an offset such as -08:00, \(example)"))
        } else {
            return .failure(Reason(message: "\"\(text)\" has unexpected text after the time; \(example)"))
        }
        guard i == c.count else {
            return .failure(Reason(message: "\"\(text)\" has unexpected text after the time zone; \(example)"))
        }
        return .success(
            PassDate(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                fraction: fraction, utcOffsetSeconds: offset))
    }

    private init(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: String,
        utcOffsetSeconds: Int
    ) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
        self.fraction = fraction
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
