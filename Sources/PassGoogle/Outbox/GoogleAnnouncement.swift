import PassModel

/// What Apple Wallet would say about a change, said to Google Wallet: Apple shows a field's `changeMessage`
/// (its `%@` replaced by the new value) when that field's value changes; Google gets the same words as a message
/// (`addMessage`, `TEXT_AND_NOTIFY`). Several fields changed at once make one message, one line each.
package struct GoogleAnnouncement: Sendable, Equatable {
    /// The message's title: the label of the one field changed, else the pass's organization.
    package var header: String
    package var body: String

    /// Google cuts message texts; PassMint keeps them to lengths a notification shows.
    package static let maxHeader = 100
    package static let maxBody = 500

    package init(header: String, body: String) {
        self.header = String(header.prefix(Self.maxHeader))
        self.body = String(body.prefix(Self.maxBody))
    }

    /// The announcement of the change from the pass.json `old` to `new`; nil when no field with a
    /// `changeMessage` changed value (or there is no `old` to compare with).
    package static func between(old: JSONValue?, new: JSONValue) -> GoogleAnnouncement? {
        guard let old else { return nil }
        let before = fields(old)
        var lines: [(label: String?, text: String)] = []
        for field in fields(new) {
            guard let message = field["changeMessage"]?.stringValue, let key = field["key"]?.stringValue,
                let value = field["value"]
            else { continue }
            let previous = before.first { $0["key"]?.stringValue == key }?["value"]
            guard previous != value else { continue }
            let text = message.replacingOccurrences(of: "%@", with: display(value))
            guard !text.isEmpty, !lines.contains(where: { $0.text == text }) else { continue }
            lines.append((field["label"]?.stringValue, text))
        }
        guard !lines.isEmpty else { return nil }
        let organization = new["organizationName"]?.stringValue ?? new["logoText"]?.stringValue ?? "Pass"
        let header =
            lines.count == 1 ? (lines[0].label.flatMap { $0.isEmpty ? nil : $0 } ?? organization) : organization
        return GoogleAnnouncement(header: header, body: lines.map(\.text).joined(separator: "\n"))
    }

    /// The Wallet API's `Message` for this announcement; `id` lets a later look at the object find it.
    package func message(id: String, notify: Bool) -> JSONValue {
        [
            "id": .string(id), "header": .string(header), "body": .string(body),
            "messageType": notify ? "TEXT_AND_NOTIFY" : "TEXT",
        ]
    }

    /// Every field dictionary of every style and field group, in pass.json order.
    private static func fields(_ pass: JSONValue) -> [JSONValue] {
        var found: [JSONValue] = []
        for style in ["boardingPass", "coupon", "eventTicket", "generic", "storeCard", "posterGeneric"] {
            guard let groups = pass[style]?.objectValue else { continue }
            for group in groups.keys.sorted() {
                for field in groups[group]?.arrayValue ?? [] where field["key"] != nil { found.append(field) }
            }
        }
        return found
    }

    /// A value as a message shows it.
    private static func display(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .double(let number):
            return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let flag): return flag ? "true" : "false"
        default: return ""
        }
    }
}
