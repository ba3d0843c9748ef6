import Foundation
import PassModel

/// The `detail` column of `pass_events`: one JSON object per event, its keys by kind, plus `count` when the event
/// stands for several identical ones.
enum PassEventCoding {
    static func encode(_ detail: PassEventDetail, count: Int = 1) -> String {
        // Written by hand, not through a JSON value: the event writer encodes thousands of these a second.
        var out = "{"
        func add(_ key: String, _ literal: String) {
            if out.utf8.count > 1 { out += "," }
            out += "\"" + key + "\":" + literal
        }
        func add(_ key: String, int value: Int64?) { if let value { add(key, String(value)) } }
        func add(_ key: String, text value: String?) { if let value { add(key, quoted(value)) } }
        switch detail {
        case .registered(let created, let prefix):
            add("created", created ? "true" : "false")
            add("pushToken", text: prefix)
        case .unregistered(let found):
            add("found", found ? "true" : "false")
        case .listed(let since, let status, let included, let lastUpdated):
            add("status", int: Int64(status))
            add("included", included ? "true" : "false")
            add("since", int: since)
            add("lastUpdated", int: lastUpdated)
        case .downloaded(let ifModifiedSince, let seconds, let status, let lastModified):
            add("status", int: Int64(status))
            add("lastModified", text: lastModified)
            add("ifModifiedSince", text: ifModifiedSince)
            add("ifModifiedSinceSeconds", int: seconds)
        case .pushed(let status, let reason, let apnsID, let timestamp, let authentication):
            add("status", int: Int64(status))
            add("auth", text: authentication)
            add("reason", text: reason)
            add("apnsID", text: apnsID)
            add("timestamp", int: timestamp)
        case .logged(let line):
            add("line", text: String(line.prefix(PassEvent.maxLogLineLength)))
        }
        if count > 1 { add("count", int: Int64(count)) }
        return out + "}"
    }

    /// A JSON string literal: quote, backslash and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The detail and count of a stored event; nil for a kind or a shape this version does not know (skipped by
    /// readers).
    static func decode(kind: String, _ text: String) -> (detail: PassEventDetail, count: Int)? {
        guard let kind = PassEventKind(rawValue: kind),
            case .object(let object)? = try? JSONReader.parse(text, file: "pass_events.detail").value
        else { return nil }
        func int(_ key: String) -> Int64? {
            switch object[key] {
            case .integer(let value)?: return value
            case .double(let value)?: return Int64(exactly: value)
            default: return nil
            }
        }
        func bool(_ key: String) -> Bool { object[key] == .bool(true) }
        func string(_ key: String) -> String? { object[key]?.stringValue }
        let count = max(1, Int(int("count") ?? 1))
        let detail: PassEventDetail
        switch kind {
        case .registered: detail = .registered(created: bool("created"), pushTokenPrefix: string("pushToken") ?? "")
        case .unregistered: detail = .unregistered(found: bool("found"))
        case .listed:
            detail = .listed(
                since: int("since"), status: Int(int("status") ?? 0), included: bool("included"),
                lastUpdated: int("lastUpdated"))
        case .downloaded:
            detail = .downloaded(
                ifModifiedSince: string("ifModifiedSince"), ifModifiedSinceSeconds: int("ifModifiedSinceSeconds"),
                status: Int(int("status") ?? 0), lastModified: string("lastModified") ?? "")
        case .pushed:
            detail = .pushed(
                status: Int(int("status") ?? 0), reason: string("reason"), apnsID: string("apnsID"),
                apnsTimestamp: int("timestamp"), authentication: string("auth") ?? "certificate")
        case .logged: detail = .logged(line: string("line") ?? "")
        }
        return (detail, count)
    }

    /// The `changed` column of `pass_versions`: `{"key": [before, after]}`, null for an absent value.
    static func decodeChanges(_ text: String) -> [String: (before: String?, after: String?)] {
        guard case .object(let object)? = try? JSONReader.parse(text, file: "pass_versions.changed").value else {
            return [:]
        }
        var changes: [String: (before: String?, after: String?)] = [:]
        for (key, value) in object {
            guard case .array(let pair) = value, pair.count == 2 else { continue }
            changes[key] = (pair[0].stringValue, pair[1].stringValue)
        }
        return changes
    }
}
