import Foundation
import PassModel

/// A calendar day in UTC, counted in days since 1970-01-01: the key of the install figures.
package struct UTCDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before).
    package let number: Int64

    package init(number: Int64) { self.number = number }

    /// The UTC day `date` falls on.
    package init(_ date: Date) { self.init(seconds: RecordCoding.seconds(date)) }

    /// The UTC day of a second since 1970.
    package init(seconds: Int64) {
        let (quotient, remainder) = seconds.quotientAndRemainder(dividingBy: 86_400)
        number = remainder < 0 ? quotient - 1 : quotient
    }

    /// Parses `YYYY-MM-DD` (a real calendar date); nil for anything else.
    package init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int64(parts[0]), let month = Int64(parts[1]), let day = Int64(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let made = CivilCalendar.days(year: year, month: month, day: day)
        // 2026-02-30 would land on 2026-03-02: only dates that round-trip are real.
        guard UTCDay(number: made).civil == (year, month, day) else { return nil }
        number = made
    }

    /// `YYYY-MM-DD`.
    package var description: String {
        let (year, month, day) = civil
        func padded(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    package static func < (a: UTCDay, b: UTCDay) -> Bool { a.number < b.number }

    private var civil: (Int64, Int64, Int64) { CivilCalendar.civil(days: number) }
}

/// The install figures of one template on one UTC day (days without any event are not listed).
///
/// - `issued`: passes stored under a serial the store had not seen before (re-storing a serial is no new issue).
/// - `added`: passes that went from no registered device to one (their first registration, or the first again
///   after all devices had left).
/// - `removed`: passes that went from one registered device or more to none: the last device unregistered, or
///   its registrations were deleted because APNs reported its push token dead.
/// - `activeDevices`: distinct devices with at least one registration for a pass of the template at the end of
///   the day.
/// - `google`: the same day in Google Wallet, from Google's save and delete callbacks.
package struct InstallDay: Sendable, Equatable {
    package var template: String
    package var day: UTCDay
    package var issued: Int
    package var added: Int
    package var removed: Int
    package var activeDevices: Int
    package var google: GoogleInstallFigures

    package init(
        template: String, day: UTCDay, issued: Int, added: Int, removed: Int, activeDevices: Int,
        google: GoogleInstallFigures = GoogleInstallFigures()
    ) {
        self.template = template
        self.day = day
        self.issued = issued
        self.added = added
        self.removed = removed
        self.activeDevices = activeDevices
        self.google = google
    }
}

/// Google Wallet's side of a template's figures (Google has no device registry: a pass is held or not).
///
/// - `saved`: save callbacks counted (each verified callback once, by its nonce).
/// - `deleted`: delete callbacks counted.
/// - `active`: passes whose last callback was a save, at the end of the day (or of the last day summed).
/// - `silentUpdates`: changes Apple announces that went to Google silently: the pass had had 3 notifying
///   messages in the previous 24 hours, Google's limit.
package struct GoogleInstallFigures: Sendable, Equatable {
    package var saved: Int
    package var deleted: Int
    package var active: Int
    package var silentUpdates: Int

    package init(saved: Int = 0, deleted: Int = 0, active: Int = 0, silentUpdates: Int = 0) {
        self.saved = saved
        self.deleted = deleted
        self.active = active
        self.silentUpdates = silentUpdates
    }
}

/// The figures of one template summed over days: `activeDevices` is the count at the end of the last day.
package struct InstallTotals: Sendable, Equatable {
    package var template: String
    package var issued: Int
    package var added: Int
    package var removed: Int
    package var activeDevices: Int
    package var google: GoogleInstallFigures

    package init(
        template: String, issued: Int, added: Int, removed: Int, activeDevices: Int,
        google: GoogleInstallFigures = GoogleInstallFigures()
    ) {
        self.template = template
        self.issued = issued
        self.added = added
        self.removed = removed
        self.activeDevices = activeDevices
        self.google = google
    }
}

/// Which install figures to read: days `from` through `to` (both included; nil: unbounded), one template or all.
package struct InstallStatsQuery: Sendable, Equatable {
    package var from: UTCDay?
    package var to: UTCDay?
    /// A template's display name (`InstallStats.templateName`), nil for every template.
    package var template: String?

    package init(from: UTCDay? = nil, to: UTCDay? = nil, template: String? = nil) {
        self.from = from
        self.to = to
        self.template = template
    }
}

/// The answer of `passmint stats` and `GET /admin/v1/stats`: the days, and per template the sums over them.
package struct InstallReport: Sendable, Equatable {
    /// Ordered by template, then day.
    package var days: [InstallDay]
    /// One per template in `days`, ordered by template.
    package var totals: [InstallTotals]

    /// Sums `days` (ordered by template, then day) per template.
    package init(days: [InstallDay]) {
        self.days = days
        var totals: [InstallTotals] = []
        for day in days {
            if totals.last?.template != day.template {
                totals.append(InstallTotals(template: day.template, issued: 0, added: 0, removed: 0, activeDevices: 0))
            }
            totals[totals.count - 1].issued += day.issued
            totals[totals.count - 1].added += day.added
            totals[totals.count - 1].removed += day.removed
            totals[totals.count - 1].activeDevices = day.activeDevices
            totals[totals.count - 1].google.saved += day.google.saved
            totals[totals.count - 1].google.deleted += day.google.deleted
            totals[totals.count - 1].google.silentUpdates += day.google.silentUpdates
            totals[totals.count - 1].google.active = day.google.active
        }
        self.totals = totals
    }

    private struct JSONView: Encodable {
        struct Google: Encodable {
            var saved, deleted, active, silentUpdates: Int
            init(_ figures: GoogleInstallFigures) {
                saved = figures.saved
                deleted = figures.deleted
                active = figures.active
                silentUpdates = figures.silentUpdates
            }
        }
        struct Day: Encodable {
            var template: String
            var day: String
            var issued, added, removed, activeDevices: Int
            var google: Google
        }
        struct Total: Encodable {
            var template: String
            var issued, added, removed, activeDevices: Int
            var google: Google
        }
        var days: [Day]
        var totals: [Total]
    }

    /// The stable JSON form, keys sorted:
    /// `{"days": [{"activeDevices", "added", "day": "YYYY-MM-DD", "google", "issued", "removed", "template"}],
    /// "totals": [{"activeDevices", "added", "google", "issued", "removed", "template"}]}`, each `google`
    /// `{"active", "deleted", "saved", "silentUpdates"}`.
    package func json() -> [UInt8] {
        let view = JSONView(
            days: days.map {
                .init(
                    template: $0.template, day: $0.day.description, issued: $0.issued, added: $0.added,
                    removed: $0.removed, activeDevices: $0.activeDevices, google: .init($0.google))
            },
            totals: totals.map {
                .init(
                    template: $0.template, issued: $0.issued, added: $0.added, removed: $0.removed,
                    activeDevices: $0.activeDevices, google: .init($0.google))
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Strings and integers only: encoding cannot fail.
        return Array((try? encoder.encode(view)) ?? Data("{}".utf8))
    }
}

/// Rules shared by both stores' install figures.
package enum InstallStats {
    /// The prefix of a versioned template reference, `passmint-template:NAME@<sha256 hex>`.
    static let versionedPrefix = "passmint-template:"

    /// The end of both stores' migration 5, once `install_passes` is filled: each device's pass count per
    /// template, and the day counters of what is already stored (a pass on the day of its last version, a pass's
    /// first device and each device's first pass of a template on the day of the registration). One SQL text
    /// that SQLite and PostgreSQL read alike.
    static let backfillCountersSQL = """
        INSERT INTO install_devices (template, device, passes)
        SELECT p.template, r.device, count(*) FROM registrations r JOIN install_passes p ON p.serial = r.serial
        GROUP BY p.template, r.device;
        INSERT INTO install_days (template, day, issued, added, removed, devices_change)
        SELECT template, day, sum(issued), sum(added), 0, sum(change) FROM (
            SELECT ip.template, p.modified_at / 86400 AS day, 1 AS issued, 0 AS added, 0 AS change
            FROM passes p JOIN install_passes ip ON ip.serial = p.serial
            UNION ALL
            SELECT ip.template, min(r.created_at) / 86400, 0, 1, 0
            FROM registrations r JOIN install_passes ip ON ip.serial = r.serial GROUP BY r.serial, ip.template
            UNION ALL
            SELECT ip.template, min(r.created_at) / 86400, 0, 0, 1
            FROM registrations r JOIN install_passes ip ON ip.serial = r.serial GROUP BY ip.template, r.device
        ) AS events
        GROUP BY template, day;
        """

    /// The name figures are grouped by, from a stored pass's template: NAME for `passmint-template:NAME@<hex>`,
    /// otherwise the folder's last path component without `.pkpasstemplate` or `.zip` (`Templates/loyalty/` →
    /// `loyalty`, `/srv/Coffee.pkpasstemplate` → `Coffee`). The migration that back-fills older passes applies
    /// the same rule in SQL (`SQLiteSchema`, `PostgresSchema` version 5).
    package static func templateName(_ template: String) -> String {
        var name: Substring
        if template.hasPrefix(versionedPrefix) {
            name = template.dropFirst(versionedPrefix.count)
            if let at = name.lastIndex(of: "@"),
                name[name.index(after: at)...].allSatisfy({ $0.isHexDigit && !$0.isUppercase })
            {
                name = name[..<at]
            }
        } else {
            name = Substring(template)
            while name.hasSuffix("/") { name = name.dropLast() }
            if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
            for suffix in [".pkpasstemplate", ".zip"] where name.lowercased().hasSuffix(suffix) {
                name = name.dropLast(suffix.count)
                break
            }
        }
        return name.isEmpty ? template : String(name)
    }
}
