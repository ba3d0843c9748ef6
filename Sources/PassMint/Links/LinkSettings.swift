import Foundation

/// The checked inputs of distribution links: where links start, and when one expires.
public enum LinkSettings {
    /// `text` as a link base: an absolute `http` or `https` URL with a host, no query or fragment (the token is
    /// appended as `/p/<token>`).
    /// - Throws: `PassMintError.invalidLinkBase`.
    public static func base(_ text: String) throws(PassMintError) -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
        else {
            throw .invalidLinkBase(text)
        }
        return text
    }

    /// An expiry given as a time: `2027-01-31` (midnight UTC) or ISO 8601 `2027-01-31T18:00:00Z`.
    /// - Throws: `PassMintError.invalidLinkExpiry`.
    public static func expiry(at text: String) throws(PassMintError) -> Date {
        let full = ISO8601DateFormatter()
        if let date = full.date(from: text) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        if text.count == 10, let date = day.date(from: text) { return date }
        throw .invalidLinkExpiry(text, form: .time)
    }

    /// An expiry given as a duration from `now`: a whole number followed by `d`, `h`, `m` or `s` (`30d`, `12h`).
    /// - Throws: `PassMintError.invalidLinkExpiry`.
    public static func expiry(in text: String, from now: Date = Date()) throws(PassMintError) -> Date {
        let units: [Character: Double] = ["d": 86_400, "h": 3_600, "m": 60, "s": 1]
        guard let unit = text.last, let seconds = units[unit], let count = Int(text.dropLast()), count > 0,
            count <= 36_500 * 86_400
        else {
            throw .invalidLinkExpiry(text, form: .duration)
        }
        return now.addingTimeInterval(Double(count) * seconds)
    }
}
