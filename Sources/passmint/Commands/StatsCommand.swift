import Foundation
import PassMint
import PassStore

/// `passmint stats`: the install figures per template and UTC day.
struct StatsCommand: Command {
    static let from = Option<String>("from", "DAY", "first UTC day included, YYYY-MM-DD")
    static let to = Option<String>("to", "DAY", "last UTC day included, YYYY-MM-DD")
    static let template = Option<String>("template", "NAME", "only this template (e.g. loyalty)")
    static let json = Flag("json", "print the figures as one JSON object")

    static let spec = CommandSpec(
        name: "stats",
        abstract:
            "install figures per template and day, Apple and Google Wallet: issued, added, removed, active, saved",
        usage: "stats [--db FILE | --postgres URL] [--from DAY] [--to DAY] [--template NAME] [--json]",
        discussion: """
            Days are UTC; only days with an event are listed. issued: new serials stored (storing a serial again
            is no new issue). added: passes that went from no registered device to one (first registration).
            removed: passes that went from one or more devices to none (the last device unregistered, or its
            registrations were deleted because APNs called the push token dead). active devices: distinct devices
            registered for at least one pass of the template at the end of the day, counting every earlier day
            even when --from starts later. The totals sum the listed days; their active devices are those at the
            end of the last listed day. A template is named by its folder's last component (Templates/loyalty is
            loyalty, Coffee.pkpasstemplate is Coffee) or by NAME of passmint-template:NAME@…. Google Wallet
            (serve --google with --google-root-keys): g saved and g deleted count Google's verified save and
            delete callbacks (each once, by its nonce); g active is the passes whose last callback was a save, at
            the end of the day; g silent is changes Apple announces that went to Google silently because the pass
            had had 3 notifying messages in 24 hours. --json prints {"days": [{"template", "day", "issued",
            "added", "removed", "activeDevices", "google": {"saved", "deleted", "active", "silentUpdates"}}],
            "totals": [{"template", "issued", "added", "removed", "activeDevices", "google": {…}}]}, the same as
            GET /admin/v1/stats.
            """,
        options: [
            from,
            to,
            template,
            json,
        ] + StoreArguments.options(dbHelp: StoreArguments.defaultFileHelp),
        examples: [
            "passmint stats --db passmint.db",
            "passmint stats --db passmint.db --from 2026-12-01 --to 2026-12-31 --template loyalty --json",
        ]
    )

    let store: StoreLocation
    let query: InstallStatsQuery
    let json: Bool

    init(_ args: ParsedArguments) throws(CLIError) {
        store = try StoreArguments.location(args) ?? .sqlite(path: "passmint.db")
        func day(_ option: Option<String>) throws(CLIError) -> UTCDay? {
            guard let text = args[option] else { return nil }
            guard let day = UTCDay(text) else {
                throw .usage("--\(option.spec.long) \(text) is not a day; give YYYY-MM-DD (UTC), e.g. 2026-12-01")
            }
            return day
        }
        query = InstallStatsQuery(from: try day(Self.from), to: try day(Self.to), template: args[Self.template])
        if let from = query.from, let to = query.to, from > to {
            throw .usage("--from \(from) is after --to \(to)")
        }
        json = args[Self.json]
    }

    func run() throws(CLIError) -> Int32 {
        // Reading figures must not create an empty store where a path was mistyped.
        if case .sqlite(let path) = store, !FileManager.default.fileExists(atPath: path) {
            throw .environment("--db \(path): no such store file")
        }
        let opened: any ServiceStore
        do { opened = try StoreAccess.open(store) } catch { throw error.cli }
        let report: InstallReport
        do {
            report = try opened.installReport(query)
        } catch {
            throw .environment("reading the install figures of \(store): \(error)")
        }
        if json {
            print(String(decoding: report.json(), as: UTF8.self))
        } else if report.days.isEmpty {
            print("no install figures for these days and templates")
        } else {
            print(Self.table(report), terminator: "")
        }
        return 0
    }

    /// One line per template and day, then one total line per template; numbers right-aligned. Apple Wallet's
    /// columns, then Google Wallet's.
    static func table(_ report: InstallReport) -> String {
        var rows = [
            [
                "template", "day", "issued", "added", "removed", "active devices", "g saved", "g deleted", "g active",
                "g silent",
            ]
        ]
        func numbers(_ apple: [Int], _ google: GoogleInstallFigures) -> [String] {
            (apple + [google.saved, google.deleted, google.active, google.silentUpdates]).map { String($0) }
        }
        for day in report.days {
            rows.append(
                [day.template, day.day.description]
                    + numbers([day.issued, day.added, day.removed, day.activeDevices], day.google))
        }
        for total in report.totals {
            rows.append(
                [total.template, "total"]
                    + numbers([total.issued, total.added, total.removed, total.activeDevices], total.google))
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var out = ""
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column < 2 ? cell + pad : pad + cell
            }
            out += cells.joined(separator: "  ").replacingOccurrences(
                of: "\\s+$", with: "", options: .regularExpression)
            out += "\n"
        }
        return out
    }
}
