import PassModel

/// What Google requires of a class and an object, checked before anything leaves: the fields its discovery
/// document marks "Required.", the identifier grammar and its hard limits. Its recommended lengths (the phone may
/// cut longer text) become gaps, not errors.
enum GoogleChecks {
    /// Required class and object fields per kind, with what in the template gives each one a value.
    static let required: [GoogleKind: (class: [(String, String)], object: [(String, String)])] = [
        .loyalty: (
            [
                ("issuerName", "give pass.json an organizationName"),
                ("programName", "give pass.json a logoText or an organizationName"),
                ("programLogo", "give the template a logo.png (or google.json class.programLogo)"),
                ("reviewStatus", "google.json must not remove it"),
            ], [("state", "google.json must not remove it")]
        ),
        .eventTicket: (
            [
                ("issuerName", "give pass.json an organizationName"),
                ("eventName", "give pass.json semantics.eventName or a field with the key \"event\""),
                ("reviewStatus", "google.json must not remove it"),
            ], [("state", "google.json must not remove it")]
        ),
        .generic: (
            [],
            [
                ("cardTitle", "give pass.json an organizationName"),
                ("header", "give the pass a primary field with a value (or a logoText)"),
            ]
        ),
        .offer: (
            [
                ("issuerName", "give pass.json an organizationName"),
                ("provider", "give pass.json a logoText or an organizationName"),
                ("title", "give the pass a primary field with a value (or a description)"),
                ("redemptionChannel", "google.json must not remove it"),
                ("reviewStatus", "google.json must not remove it"),
            ], [("state", "google.json must not remove it")]
        ),
        .flight: (
            [
                ("issuerName", "give pass.json an organizationName"),
                ("flightHeader", "give semantics airlineCode and flightNumber"),
                ("origin", "give semantics departureAirportCode"),
                ("destination", "give semantics destinationAirportCode"),
                ("localScheduledDepartureDateTime", "give semantics originalDepartureDate"),
                ("reviewStatus", "google.json must not remove it"),
            ],
            [
                ("state", "google.json must not remove it"), ("passengerName", "give semantics passengerName"),
                ("reservationInfo", "google.json must not remove it"),
            ]
        ),
        .transit: (
            [
                ("issuerName", "give pass.json an organizationName"),
                ("logo", "give the template a logo.png (or google.json class.logo)"),
                ("transitType", "google.json must not remove it"), ("reviewStatus", "google.json must not remove it"),
            ], [("state", "google.json must not remove it"), ("tripType", "google.json must not remove it")]
        ),
    ]

    /// Most entries Google accepts in these lists, on a class and on an object.
    static let listLimits: [(String, Int)] = [("merchantLocations", 10), ("messages", 10)]

    /// Recommended most characters (the phone may cut longer text), by member.
    static let recommended: [(String, Int)] = [
        ("issuerName", 20), ("programName", 20), ("accountName", 20), ("accountId", 20), ("accountNameLabel", 15),
        ("accountIdLabel", 15), ("provider", 12), ("title", 60), ("rewardsTier", 7), ("rewardsTierLabel", 9),
    ]

    /// - Parameter checkClass: false for a class checked before (the object's `classId` is still compared).
    /// - Throws: the first `GoogleError` found, naming its JSON path in the save link's payload.
    static func check(
        kind: GoogleKind, klass: [String: JSONValue], object: [String: JSONValue], issuerID: String,
        checkClass: Bool = true, gaps: inout [GoogleGap]
    ) throws(GoogleError) {
        let classPath = kind.classPayloadKey + "[0]"
        let objectPath = kind.objectPayloadKey + "[0]"
        let required = Self.required[kind]!
        for (member, source) in required.class where checkClass && isEmpty(klass[member]) {
            throw .requiredFieldMissing(path: "\(classPath).\(member)", source: source)
        }
        for (member, source) in required.object where isEmpty(object[member]) {
            throw .requiredFieldMissing(path: "\(objectPath).\(member)", source: source)
        }
        if checkClass { try checkID(klass["id"], path: classPath + ".id", issuerID: issuerID) }
        try checkID(object["id"], path: objectPath + ".id", issuerID: issuerID)
        guard object["classId"] == klass["id"] else {
            throw .invalidIdentifier(path: objectPath + ".classId", value: object["classId"]?.stringValue ?? "")
        }
        if checkClass, let eventID = klass["eventId"]?.stringValue, eventID.count > 64 {
            throw .overLimit(path: classPath + ".eventId", count: eventID.count, limit: 64, unit: "characters")
        }
        for (resource, path) in checkClass ? [(klass, classPath), (object, objectPath)] : [(object, objectPath)] {
            for (member, limit) in listLimits {
                if let list = resource[member]?.arrayValue, list.count > limit {
                    throw .overLimit(path: "\(path).\(member)", count: list.count, limit: limit, unit: "entries")
                }
            }
            for (index, module) in (resource["textModulesData"]?.arrayValue ?? []).enumerated() {
                guard let id = module["id"]?.stringValue else { continue }
                guard !id.isEmpty, id.utf8.allSatisfy({ isIDByte($0) && $0 != UInt8(ascii: ".") }) else {
                    throw .invalidIdentifier(path: "\(path).textModulesData[\(index)].id", value: id)
                }
            }
            for (member, limit) in recommended {
                if let text = resource[member]?.stringValue, text.count > limit {
                    gaps.append(
                        GoogleGap(
                            path: "\(path).\(member)",
                            reason: .longerThanRecommended(
                                googlePath: "\(path).\(member)", count: text.count, limit: limit)))
                }
            }
        }
    }

    private static func isEmpty(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: return true
        case .string(let s)?: return s.isEmpty
        default: return false
        }
    }

    /// `<issuerID>.<suffix>`, the suffix ASCII letters, digits, `.`, `_` and `-`.
    static func checkID(_ value: JSONValue?, path: String, issuerID: String) throws(GoogleError) {
        guard let id = value?.stringValue else {
            throw .requiredFieldMissing(path: path, source: "google.json must not remove it")
        }
        let prefix = issuerID + "."
        guard id.hasPrefix(prefix), id.utf8.count > prefix.utf8.count, id.utf8.allSatisfy(isIDByte) else {
            throw .invalidIdentifier(path: path, value: id)
        }
    }

    static func isIDByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x5F
            || b == 0x2D
    }
}
