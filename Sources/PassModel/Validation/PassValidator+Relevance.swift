extension Checker {
    mutating func checkRelevance(_ root: [String: JSONValue]) {
        _ = date(root, "relevantDate", in: "")
        _ = date(root, "expirationDate", in: "")
        if let d = number(root, "maxDistance", in: ""), d <= 0 {
            invalid(
                "maxDistance",
                "maxDistance is \(JSONWriter.formatDouble(d)); write a positive distance in metres, e.g. 100")
        }
        checkLocations(root)
        checkBeacons(root)
        checkRelevantDates(root)
    }

    mutating func checkLocations(_ root: [String: JSONValue]) {
        guard let items = array(root, "locations", in: "", of: "location dictionaries") else { return }
        if items.count > 10 {
            invalid(
                "locations", "locations lists \(items.count) places; Wallet uses at most 10 — keep the 10 most relevant"
            )
        }
        for (i, item) in items.enumerated() {
            let path = JSONPath.index("locations", i)
            guard let l = object(item, at: path, what: "a location dictionary {\"latitude\", \"longitude\"}") else {
                continue
            }
            for (key, limit) in [("latitude", 90.0), ("longitude", 180.0)] {
                guard l[key] != nil else {
                    error(
                        PassProblemCode.missingKey, JSONPath.member(path, key),
                        "location at \(path) has no \"\(key)\"; add it in degrees as a number")
                    continue
                }
                if let d = number(l, key, in: path), abs(d) > limit {
                    invalid(
                        JSONPath.member(path, key),
                        "\(key) \(JSONWriter.formatDouble(d)) is outside -\(Int(limit))…\(Int(limit)); write the \(key) in decimal degrees"
                    )
                }
            }
            _ = number(l, "altitude", in: path)
            _ = string(l, "relevantText", in: path)
            unknownKeys(l, known: PassLocation.knownKeys, in: path)
        }
    }

    mutating func checkBeacons(_ root: [String: JSONValue]) {
        guard let items = array(root, "beacons", in: "", of: "beacon dictionaries") else { return }
        for (i, item) in items.enumerated() {
            let path = JSONPath.index("beacons", i)
            guard let b = object(item, at: path, what: "a beacon dictionary {\"proximityUUID\", …}") else { continue }
            if b["proximityUUID"] == nil {
                error(
                    PassProblemCode.missingKey, JSONPath.member(path, "proximityUUID"),
                    "beacon at \(path) has no \"proximityUUID\"; add the beacon's UUID, e.g. \"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0\""
                )
            } else if let u = string(b, "proximityUUID", in: path), !Self.isUUID(u) {
                invalid(
                    JSONPath.member(path, "proximityUUID"),
                    "proximityUUID \"\(u)\" is not a UUID; write 8-4-4-4-12 hex digits, e.g. \"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0\""
                )
            }
            for key in ["major", "minor"] {
                guard let v = b[key] else { continue }
                guard case .integer(let n) = v, (0...65535).contains(n) else {
                    invalid(
                        JSONPath.member(path, key),
                        "\(key) is \(Checker.show(v)); beacon \(key) is a 16-bit value — write a whole number from 0 to 65535"
                    )
                    continue
                }
            }
            _ = string(b, "relevantText", in: path)
            unknownKeys(b, known: PassBeacon.knownKeys, in: path)
        }
    }

    static func isUUID(_ s: String) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12]
            && parts.allSatisfy { $0.allSatisfy { $0.isHexDigit && $0.isASCII } }
    }

    mutating func checkRelevantDates(_ root: [String: JSONValue]) {
        guard let items = array(root, "relevantDates", in: "", of: "{\"startDate\", \"endDate\"} or {\"date\"} entries")
        else { return }
        for (i, item) in items.enumerated() {
            let path = JSONPath.index("relevantDates", i)
            guard let e = object(item, at: path, what: "an entry {\"startDate\": …, \"endDate\": …} or {\"date\": …}")
            else { continue }
            let start = date(e, "startDate", in: path)
            let end = date(e, "endDate", in: path)
            let single = date(e, "date", in: path)
            let legacySingle = date(e, "relevantDate", in: path)
            _ = (single, legacySingle)
            if e["startDate"] != nil, e["endDate"] == nil {
                invalid(
                    JSONPath.member(path, "endDate"),
                    "relevantDates entry has startDate but no endDate; Wallet requires endDate whenever startDate is present — add \"endDate\" (at most 24 hours later)"
                )
            } else if e["endDate"] != nil, e["startDate"] == nil {
                invalid(
                    JSONPath.member(path, "startDate"),
                    "relevantDates entry has endDate but no startDate; add \"startDate\", or use {\"date\": …} for a single moment"
                )
            } else if e["startDate"] == nil, e["date"] == nil, e["relevantDate"] == nil {
                invalid(
                    path, "relevantDates entry has no date; write {\"startDate\": …, \"endDate\": …} or {\"date\": …}")
            }
            if let start, let end {
                let span = end.epochSeconds - start.epochSeconds
                if span < 0 {
                    invalid(
                        JSONPath.member(path, "endDate"),
                        "endDate \(end) is before startDate \(start); swap them or fix the dates")
                } else if span > 86_400 {
                    invalid(
                        JSONPath.member(path, "endDate"),
                        "this relevance interval spans \(span / 3600) hours; an interval may span at most 24 hours — split it into several entries",
                        severity: .warning)
                }
            }
            unknownKeys(e, known: PassRelevantDate.knownKeys, in: path)
        }
    }
}
