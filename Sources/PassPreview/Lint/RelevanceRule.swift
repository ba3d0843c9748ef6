import PassModel

/// An event ticket or boarding pass should come up on the lock screen when it is needed: it needs
/// `relevantDates` (or the older `relevantDate`), `locations` or `beacons`.
enum RelevanceRule {
    static func check(_ c: LintContext, into rows: inout [LintRow]) {
        guard c.style.dictionary == .eventTicket || c.style.dictionary == .boardingPass else { return }
        let p = c.pass
        guard (p.relevantDates ?? []).isEmpty, p.relevantDate == nil, (p.locations ?? []).isEmpty,
            (p.beacons ?? []).isEmpty
        else { return }
        // Suggest the pass's own date: the event start, else the first date-styled field.
        let start =
            p.semantics?.tags["eventStartDate"]?.stringValue
            ?? p.semantics?.tags["originalDepartureDate"]?.stringValue
            ?? c.fields.first { $0.field.dateStyle != nil && $0.field.value?.date != nil }?.field.value?.string
        let date = start.flatMap(PassDate.init(parsing:))
        let end = date.map { d -> String in
            var e = d
            e.hour = min(23, d.hour + 4)
            return e.description
        }
        let after =
            date.map { "\"relevantDates\": [{\"startDate\": \"\($0.description)\", \"endDate\": \"\(end!)\"}]" }
            ?? "\"relevantDates\": [{\"startDate\": \"2027-06-12T18:00:00+02:00\", \"endDate\": \"2027-06-12T23:00:00+02:00\"}]"
        rows.append(
            LintRow(
                LintCode.relevanceMissing, path: "relevantDates", before: LintRow.missing, after: after,
                change:
                    "The \(c.style.dictionary == .boardingPass ? "boarding pass" : "ticket") appears on the lock screen "
                    + "when it is needed (and, on a poster ticket, as a Live Activity) instead of only inside Wallet"))
    }
}
