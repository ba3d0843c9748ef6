import Foundation
import PassModel

/// RFC 7231 HTTP dates: IMF-fixdate out; IMF-fixdate, RFC 850 and asctime in. Whole seconds since 1970, UTC.
package enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    package static func format(_ seconds: Int64) -> String {
        let dayCount = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - dayCount * 86_400
        let (year, month, day) = CivilCalendar.civil(days: dayCount)
        let weekday = Int(((dayCount % 7) + 11) % 7)  // 1970-01-01 was a Thursday
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[weekday]), \(two(day)) \(months[Int(month) - 1]) \(year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }

    /// Seconds since 1970 of an HTTP date in any of the three RFC 7231 formats; nil when it is none of them.
    package static func parse(_ text: String) -> Int64? {
        let tokens = text.split { $0 == " " || $0 == "," || $0 == "-" || $0 == ":" }
        let day: Substring, month: Substring, year: Substring, clock: ArraySlice<Substring>
        if tokens.count == 8, tokens[7] == "GMT" {  // IMF-fixdate or RFC 850
            (day, month, year, clock) = (tokens[1], tokens[2], tokens[3], tokens[4...6])
        } else if tokens.count == 7 {  // asctime
            (month, day, clock, year) = (tokens[1], tokens[2], tokens[3...5], tokens[6])
        } else {
            return nil
        }
        guard let monthIndex = months.firstIndex(where: { $0 == month }),
            let d = Int64(day), (1...31).contains(d),
            var y = Int64(year), year.count == 4 || year.count == 2,
            let h = Int64(clock[clock.startIndex]), (0...23).contains(h),
            let m = Int64(clock[clock.startIndex + 1]), (0...59).contains(m),
            let s = Int64(clock[clock.startIndex + 2]), (0...60).contains(s)
        else { return nil }
        if year.count == 2 { y += y < 70 ? 2000 : 1900 }
        return CivilCalendar.days(year: y, month: Int64(monthIndex + 1), day: d) * 86_400 + h * 3600 + m * 60 + s
    }
}
