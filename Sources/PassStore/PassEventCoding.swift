import Foundation
import PassModel

/// The `detail` column of `pass_events`: one JSON object per event, its keys by kind, plus `count` when the event
/// stands for several identical ones.
enum PassEventCoding {
    static func encode(_ detail: PassEventDetail, count: Int = 1) -> String {
        var object: [String: JSONValue] = [:]
        func int(_ key: String, _ value: Int64?) { if let value { object[key] = .integer(value) } }
        func text(_ key: String, _ value: String?) { if let value { object[key] = .string(value) } }
        switch detail {
        case .registered(let created, let prefix):
            object = ["created": .bool(created), "pushToken": .string(prefix)]
        case .unregistered(let found):
            object = ["found": .bool(found)]
        case .listed(let since, let status, let included, let lastUpdated):
            object = ["status": .integer(Int64(status)), "included": .bool(included)]
            int("since", since)
            int("lastUpdated", lastUpdated)
        case .downloaded(let ifModifiedSince, let seconds, let status, let lastModified):
            object = ["status": .integer(Int64(status)), "lastModified": .string(lastModified)]
            text("ifModifiedSince", ifModifiedSince)
            int("ifModifiedSinceSeconds", seconds)
        case .pushed(let status, let reason, let apnsID, let timestamp, let authentication):
            object = ["status": .integer(Int64(status)), "auth": .string(authentication)]
            text("reason", reason)
            text("apnsID", apnsID)
            int("timestamp", timestamp)
        case .logged(let line):
            object = ["line": .string(String(line.prefix(PassEvent.maxLogLineLength)))]
        }
        if count > 1 { object["count"] = .integer(Int64(count)) }
        return String(decoding: JSONWriter.serialize(.object(object), pretty: false), as: UTF8.self)
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
