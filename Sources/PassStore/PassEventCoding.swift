import Foundation

/// The `detail` column of `pass_events`: one JSON object per event, its keys by kind.
enum PassEventCoding {
    static func encode(_ detail: PassEventDetail) -> String {
        var object: [String: Any] = [:]
        switch detail {
        case .registered(let created, let prefix):
            object = ["created": created, "pushToken": prefix]
        case .unregistered(let found):
            object = ["found": found]
        case .listed(let since, let status, let included, let lastUpdated):
            object = ["status": status, "included": included]
            if let since { object["since"] = since }
            if let lastUpdated { object["lastUpdated"] = lastUpdated }
        case .downloaded(let ifModifiedSince, let seconds, let status, let lastModified):
            object = ["status": status, "lastModified": lastModified]
            if let ifModifiedSince { object["ifModifiedSince"] = ifModifiedSince }
            if let seconds { object["ifModifiedSinceSeconds"] = seconds }
        case .pushed(let status, let reason, let apnsID, let timestamp, let authentication):
            object = ["status": status, "auth": authentication]
            if let reason { object["reason"] = reason }
            if let apnsID { object["apnsID"] = apnsID }
            if let timestamp { object["timestamp"] = timestamp }
        case .logged(let line):
            object = ["line": String(line.prefix(PassEvent.maxLogLineLength))]
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The detail of a stored event; nil for a kind or a shape this version does not know (skipped by readers).
    static func decode(kind: String, _ text: String) -> PassEventDetail? {
        guard let kind = PassEventKind(rawValue: kind),
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { return nil }
        func int(_ key: String) -> Int64? { (object[key] as? NSNumber)?.int64Value }
        func bool(_ key: String) -> Bool { (object[key] as? NSNumber)?.boolValue ?? false }
        func string(_ key: String) -> String? { object[key] as? String }
        switch kind {
        case .registered: return .registered(created: bool("created"), pushTokenPrefix: string("pushToken") ?? "")
        case .unregistered: return .unregistered(found: bool("found"))
        case .listed:
            return .listed(
                since: int("since"), status: Int(int("status") ?? 0), included: bool("included"),
                lastUpdated: int("lastUpdated"))
        case .downloaded:
            return .downloaded(
                ifModifiedSince: string("ifModifiedSince"), ifModifiedSinceSeconds: int("ifModifiedSinceSeconds"),
                status: Int(int("status") ?? 0),
                lastModified: string("lastModified") ?? "")
        case .pushed:
            return .pushed(
                status: Int(int("status") ?? 0), reason: string("reason"), apnsID: string("apnsID"),
                apnsTimestamp: int("timestamp"), authentication: string("auth") ?? "certificate")
        case .logged: return .logged(line: string("line") ?? "")
        }
    }

    /// The `changed` column of `pass_versions`: `{"key": [before, after]}`, null for an absent value.
    static func decodeChanges(_ text: String) -> [String: (before: String?, after: String?)] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            return [:]
        }
        var changes: [String: (before: String?, after: String?)] = [:]
        for (key, value) in object {
            guard let pair = value as? [Any], pair.count == 2 else { continue }
            changes[key] = (pair[0] as? String, pair[1] as? String)
        }
        return changes
    }
}
