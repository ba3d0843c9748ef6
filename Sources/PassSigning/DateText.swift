import Foundation

/// Dates in messages: ISO 8601 in UTC (`2027-03-01T12:00:00Z`), the same wherever the command runs.
public enum DateText {
    public static func utc(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: 0)!))
    }
}
