import PassModel

/// What every kind shares: text modules from the fields no slot took, links, locations, validity, state, the
/// card's rows, and the Apple keys Google has nothing for.
enum CommonModules {
    /// Google shows 10 text modules from the class and 10 from the object.
    static let shownModules = 10
    /// Header and body lengths Google recommends for a text module.
    static let headerLimit = 35
    static let bodyLimit = 500

    /// The fields no slot took become text modules: the template's own ones on the class, the record's on the
    /// object. Front fields (not back or additional info) also become the card's rows, up to three of three.
    static func textModules(_ ctx: inout MappingContext) {
        var classModules: [JSONValue] = []
        var objectModules: [JSONValue] = []
        var front: [(id: String, level: MappingContext.Level)] = []
        var used: Set<String> = []
        for (located, extra) in ctx.moduleFields {
            let field = located.field
            let body = ctx.valueText(field)
            guard !body.isEmpty else { continue }
            let id = uniqueID(field.key ?? "field", used: &used)
            let level = extra ? .object : ctx.level(of: located)
            // A class already made (GoogleMapping's class memo) needs none of its modules; their IDs are still
            // taken above, so the object's modules get the IDs they had beside that class.
            if level == .class, !ctx.buildsClass { continue }
            var module: [String: JSONValue] = ["id": .string(id), "body": .string(body)]
            if let label = field.label, !label.isEmpty { module["header"] = .string(label) }
            // A value a class slot shows too has its translations there (the class is per value): the object's
            // module stays short, since every character counts against the save link's length.
            if !extra {
                if let label = field.label, !label.isEmpty { module["localizedHeader"] = ctx.text.twin(label) }
                module["localizedBody"] = ctx.localizedTwin(field)
            }
            let target = level == .class ? "class" : "object"
            let modulePath = "\(target).textModulesData[\(level == .class ? classModules.count : objectModules.count)]"
            if let label = field.label, label.count > headerLimit {
                ctx.gap(
                    located.path + ".label",
                    .longerThanRecommended(googlePath: modulePath + ".header", count: label.count, limit: headerLimit))
            }
            if body.count > bodyLimit {
                ctx.gap(
                    located.path + ".value",
                    .longerThanRecommended(googlePath: modulePath + ".body", count: body.count, limit: bodyLimit))
            }
            if level == .class { classModules.append(.object(module)) } else { objectModules.append(.object(module)) }
            // A field a slot shows already (the tier) is not shown twice on the card.
            if !extra, located.group != .backFields, located.group != .additionalInfoFields {
                front.append((id, level))
            }
        }
        for (modules, name) in [(classModules, "class"), (objectModules, "object")] where modules.count > shownModules {
            ctx.gap(
                ctx.style.rawValue,
                .moreThanShown(googlePath: "\(name).textModulesData", count: modules.count, limit: shownModules))
        }
        if !classModules.isEmpty { ctx.klass["textModulesData"] = .array(classModules) }
        if !objectModules.isEmpty { ctx.object["textModulesData"] = .array(objectModules) }
        if ctx.buildsClass { cardRows(front, into: &ctx) }
    }

    /// Up to three rows of up to three of the front fields, so the card shows them as Apple's front does.
    private static func cardRows(_ front: [(id: String, level: MappingContext.Level)], into ctx: inout MappingContext) {
        guard !front.isEmpty else { return }
        func item(_ entry: (id: String, level: MappingContext.Level)) -> JSONValue {
            let owner = entry.level == .class ? "class" : "object"
            return ["firstValue": ["fields": [["fieldPath": .string("\(owner).textModulesData['\(entry.id)']")]]]]
        }
        var rows: [JSONValue] = []
        var index = 0
        while index < front.count, rows.count < 3 {
            let chunk = Array(front[index..<min(index + 3, front.count)])
            index += chunk.count
            switch chunk.count {
            case 1: rows.append(["oneItem": ["item": item(chunk[0])]])
            case 2: rows.append(["twoItems": ["startItem": item(chunk[0]), "endItem": item(chunk[1])]])
            default:
                rows.append(
                    [
                        "threeItems": [
                            "startItem": item(chunk[0]), "middleItem": item(chunk[1]), "endItem": item(chunk[2]),
                        ]
                    ])
            }
        }
        ctx.klass["classTemplateInfo"] = ["cardTemplateOverride": ["cardRowTemplateInfos": .array(rows)]]
    }

    /// Letters, digits, `_` and `-` only (Google's text module ID grammar; dots separate field paths), unique.
    static func uniqueID(_ key: String, used: inout Set<String>) -> String {
        if !key.isEmpty, key.utf8.allSatisfy(isModuleIDByte), used.insert(key).inserted { return key }
        var base = String(key.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "_" })
        if base.isEmpty { base = "field" }
        var id = base
        var n = 2
        while !used.insert(id).inserted {
            id = "\(base)-\(n)"
            n += 1
        }
        return id
    }

    /// ASCII letters, digits, `_` and `-`.
    private static func isModuleIDByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
    }

    /// featuredActions and the pass's link keys → the links module (the class's when the template's own).
    static func links(_ ctx: inout MappingContext) {
        var classURIs: [JSONValue] = []
        var objectURIs: [JSONValue] = []
        var used: Set<String> = []
        func add(_ uri: String, _ description: String, id: String, path: String) {
            let entry: JSONValue = [
                "uri": .string(uri), "description": .string(description), "id": .string(uniqueID(id, used: &used)),
            ]
            if ctx.level(of: path) != .class {
                objectURIs.append(entry)
            } else if ctx.buildsClass {
                classURIs.append(entry)
            }
        }
        for (index, action) in (ctx.pass.featuredActions ?? []).enumerated() {
            guard let url = action.url, !url.isEmpty else { continue }
            let path = JSONPath.index("featuredActions", index)
            add(url, actionTitle(action.type), id: action.identifier ?? "action", path: path)
        }
        let json = ctx.passJSON
        for (key, title, scheme) in linkKeys {
            guard let value = json[key]?.stringValue, !value.isEmpty else { continue }
            add(scheme.map { $0 + value } ?? value, title, id: key, path: key)
        }
        if !classURIs.isEmpty { ctx.klass["linksModuleData"] = ["uris": .array(classURIs)] }
        if !objectURIs.isEmpty { ctx.object["linksModuleData"] = ["uris": .array(objectURIs)] }
    }

    /// Top-level keys that hold a link, the button's words (at most 20 characters, as Google recommends) and the
    /// scheme to put before a phone number or an address.
    static let linkKeys: [(String, String, String?)] = [
        ("accessibilityURL", "Accessibility", nil), ("addOnURL", "Add-ons", nil), ("bagPolicyURL", "Bag policy", nil),
        ("contactVenueEmail", "Email the venue", "mailto:"), ("contactVenuePhoneNumber", "Call the venue", "tel:"),
        ("contactVenueWebsite", "Venue website", nil), ("directionsInformationURL", "Directions", nil),
        ("merchandiseURL", "Merchandise", nil), ("orderFoodURL", "Order food", nil),
        ("parkingInformationURL", "Parking", nil), ("purchaseParkingURL", "Buy parking", nil),
        ("sellURL", "Sell ticket", nil), ("transferURL", "Transfer ticket", nil),
        ("transitInformationURL", "Public transport", nil), ("changeSeatURL", "Change seat", nil),
        ("entertainmentURL", "Entertainment", nil), ("purchaseAdditionalBaggageURL", "Add baggage", nil),
        ("purchaseLoungeAccessURL", "Lounge access", nil), ("purchaseWifiURL", "Wi-Fi", nil),
        ("upgradeURL", "Upgrade", nil), ("managementURL", "Manage booking", nil),
        ("registerServiceAnimalURL", "Service animal", nil), ("reportLostBagURL", "Report lost bag", nil),
        ("requestWheelchairURL", "Wheelchair", nil), ("trackBagsURL", "Track bags", nil),
        ("transitProviderEmail", "Email", "mailto:"), ("transitProviderPhoneNumber", "Call", "tel:"),
        ("transitProviderWebsiteURL", "Website", nil),
    ]

    static func actionTitle(_ type: FeaturedActionType?) -> String {
        switch type {
        case .viewSchedule?: return "Schedule"
        case .watchTrailer?: return "Trailer"
        case .listenToMusic?: return "Music"
        case .call?: return "Call"
        case .place?: return "Directions"
        case .addToBalance?: return "Add to balance"
        case .order?: return "Order"
        case .shop?: return "Shop"
        case .membershipBenefits?: return "Benefits"
        case .bookAppointment?: return "Book appointment"
        case .bookCar?: return "Book a car"
        case .bookFlight?: return "Book a flight"
        case .bookStay?: return "Book a stay"
        case .viewOffersRewards?: return "Offers & rewards"
        default: return "Open"
        }
    }

    /// locations → merchantLocations (geofenced notifications); relevantText has no counterpart.
    static func locations(_ ctx: inout MappingContext) {
        var points: [JSONValue] = []
        for (index, location) in (ctx.pass.locations ?? []).enumerated() {
            guard let latitude = location.latitude, let longitude = location.longitude else { continue }
            points.append(["latitude": .double(latitude), "longitude": .double(longitude)])
            if location.relevantText != nil {
                ctx.gap(JSONPath.index("locations", index) + ".relevantText", .noCounterpart)
            }
        }
        guard !points.isEmpty else { return }
        ctx.set("merchantLocations", .array(points), on: ctx.level(of: "locations"))
    }

    /// relevantDates and expirationDate → validTimeInterval (Google moves the pass to "Expired passes" after its
    /// end); voided → INACTIVE.
    static func validity(_ ctx: inout MappingContext) {
        var starts: [PassDate] = []
        var ends: [PassDate] = []
        for entry in ctx.pass.relevantDates ?? [] {
            if let s = (entry.startDate ?? entry.date ?? entry.relevantDate).flatMap(PassDate.init(parsing:)) {
                starts.append(s)
            }
            if let e = entry.endDate.flatMap(PassDate.init(parsing:)) { ends.append(e) }
        }
        if let single = ctx.pass.relevantDate.flatMap(PassDate.init(parsing:)) { starts.append(single) }
        var interval: [String: JSONValue] = [:]
        if let start = starts.min(by: { $0.epochSeconds < $1.epochSeconds }) {
            interval["start"] = ["date": .string(start.description)]
        }
        if let expiry = ctx.pass.expirationDate.flatMap(PassDate.init(parsing:)) {
            interval["end"] = ["date": .string(expiry.description)]
        } else if let end = ends.max(by: { $0.epochSeconds < $1.epochSeconds }) {
            interval["end"] = ["date": .string(end.description)]
        }
        if !interval.isEmpty { ctx.object["validTimeInterval"] = .object(interval) }
        ctx.object["state"] = ctx.pass.voided == true ? "INACTIVE" : "ACTIVE"
    }

    /// `#rrggbb` for an Apple colour.
    static func hex(_ color: PassColorValue?) -> JSONValue? {
        guard let c = color?.components else { return nil }
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [0x23]
        for v in [c.r, c.g, c.b] { out += [digits[Int(v >> 4)], digits[Int(v & 15)]] }
        return .string(String(decoding: out, as: UTF8.self))
    }

    /// The pass's background colour: on the class when it is the template's own (or the kind has no object
    /// colour), else on the object.
    static func colour(_ ctx: inout MappingContext, objectLevel: Bool, classLevel: Bool = true) {
        guard let color = hex(ctx.pass.backgroundColor) else { return }
        let onObject = objectLevel && (!classLevel || ctx.level(of: "backgroundColor") == .object)
        if onObject { ctx.object["hexBackgroundColor"] = color } else { ctx.klass["hexBackgroundColor"] = color }
    }

    /// sharingProhibited → one user (on all their devices).
    static func sharing(_ ctx: inout MappingContext) {
        if ctx.pass.sharingProhibited == true {
            ctx.klass["multipleDevicesAndHoldersAllowedStatus"] = "ONE_USER_ALL_DEVICES"
        }
    }

    /// Apple keys Google has nothing for, and images without a slot.
    static func unmapped(_ ctx: inout MappingContext, usedImages: Set<String>) {
        let pass = ctx.pass
        var keys: [String] = []
        if pass.beacons?.isEmpty == false { keys.append("beacons") }
        if pass.nfc != nil { keys.append("nfc") }
        if pass.foregroundColor != nil { keys.append("foregroundColor") }
        if pass.labelColor != nil { keys.append("labelColor") }
        if pass.footerBackgroundColor != nil { keys.append("footerBackgroundColor") }
        if pass.appLaunchURL != nil { keys.append("appLaunchURL") }
        if pass.associatedStoreIdentifiers?.isEmpty == false { keys.append("associatedStoreIdentifiers") }
        if pass.maxDistance != nil { keys.append("maxDistance") }
        if pass.eventLogoText != nil { keys.append("eventLogoText") }
        if pass.upcomingPassInformation != nil { keys.append("upcomingPassInformation") }
        for key in keys { ctx.gap(key, .noCounterpart) }
        for slot in PassImageSet.slots where !usedImages.contains(slot) {
            if let image = ctx.images[slot] { ctx.gap(image.path, .imageHasNoSlot) }
        }
        if usedImages.contains("logo"), let logo = ctx.images["logo"], let w = logo.width, let h = logo.height, w != h {
            ctx.gap(logo.path, .logoNotSquare(width: w, height: h))
        }
    }
}
