extension Checker {
    mutating func checkSemanticsAndPoster(_ root: [String: JSONValue]) {
        var tags: [String: JSONValue]?
        if let v = root["semantics"] {
            tags = object(v, at: "semantics", what: "a dictionary { … } of semantic tags")
            if let tags { checkSemanticTags(tags, at: "semantics") }
        }
        guard let schemes = array(root, "preferredStyleSchemes", in: "", of: "style scheme names") else { return }
        var names: [StyleScheme] = []
        for (i, item) in schemes.enumerated() {
            if item == .string(PassStyle.posterGeneric.rawValue) {
                // A likely slip: posterGeneric is a style key, and iOS 27 uses it without being asked [A].
                invalid(
                    JSONPath.index("preferredStyleSchemes", i),
                    "posterGeneric is a style key, not a scheme: iOS 27 shows a posterGeneric dictionary whenever the pass has one — remove this entry",
                    severity: .warning)
                continue
            }
            guard case .string(let s) = item, StyleScheme(rawValue: s).isKnown else {
                invalid(
                    JSONPath.index("preferredStyleSchemes", i),
                    "preferredStyleSchemes entry \(Checker.show(item)) is not a scheme Wallet knows; write one of \(StyleScheme.knownList)",
                    severity: .warning)
                continue
            }
            names.append(StyleScheme(rawValue: s))
        }
        if names.contains(.semanticBoardingPass) {
            if root["boardingPass"] == nil {
                invalid(
                    "preferredStyleSchemes",
                    "semanticBoardingPass applies only to boardingPass passes; remove it or make the pass a boardingPass",
                    severity: .warning)
            } else {
                checkSemanticBoardingPass(tags ?? [:])
            }
        }
        guard names.contains(.posterEventTicket) else { return }
        guard root["eventTicket"] != nil else {
            warning(
                PassProblemCode.posterFallback, "preferredStyleSchemes",
                "posterEventTicket applies only to eventTicket passes; this pass always shows its classic layout — remove the scheme or make the pass an eventTicket"
            )
            return
        }
        checkPosterSemantics(tags ?? [:])
        checkPosterEventTicket(root, tags: tags ?? [:])
    }

    /// iOS 18: without these tags Wallet silently shows the classic event ticket instead of the poster. Apple's
    /// validator also refuses to sign without the event and venue names, the team abbreviations of a sports event
    /// and the performers of a live performance (not the region or room), and the message says so.
    mutating func checkPosterSemantics(_ tags: [String: JSONValue]) {
        var required: [(String, String)] = [
            ("eventName", "the event's name"), ("venueName", "the venue's name"),
            ("venueRegionName", "the venue's city or region, e.g. \"San Francisco, CA\""),
            ("venueRoom", "the room, hall or stage, e.g. \"Main Hall\""),
        ]
        let appleRequires: Set<String> = [
            "eventName", "venueName", "homeTeamAbbreviation", "awayTeamAbbreviation", "performerNames",
        ]
        func apple(_ tag: String) -> String { appleRequires.contains(tag) ? "; \(Self.appleRefuses)" : "" }
        let eventType = tags["eventType"]?.stringValue.map(EventType.init(rawValue:))
        if eventType == .sports {
            required += [
                ("homeTeamAbbreviation", "the home team's short name, e.g. \"SFG\""),
                ("awayTeamAbbreviation", "the away team's short name, e.g. \"LAD\""),
            ]
        }
        for (tag, hint) in required {
            if let s = tags[tag]?.stringValue, !s.isBlank { continue }
            warning(
                PassProblemCode.posterFallback, JSONPath.member("semantics", tag),
                "a poster event ticket needs semantics.\(tag); without it Wallet silently falls back to the classic event ticket layout\(apple(tag)) — add \"\(tag)\" with \(hint)"
            )
        }
        if eventType == .livePerformance {
            let names = tags["performerNames"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if names.isEmpty {
                warning(
                    PassProblemCode.posterFallback, "semantics.performerNames",
                    "a live-performance poster ticket needs semantics.performerNames; without it Wallet silently falls back to the classic layout\(apple("performerNames")) — add \"performerNames\": [\"Artist\"]"
                )
            }
        }
    }

    /// Light checks of the semantic tags PassMint reasons about (warnings: Wallet ignores bad semantics).
    mutating func checkSemanticTags(_ tags: [String: JSONValue], at base: String) {
        if let v = tags["eventType"], !(v.stringValue.map { EventType(rawValue: $0).isKnown } ?? false) {
            invalid(
                JSONPath.member(base, "eventType"),
                "eventType \(Checker.show(v)) is not an event type Wallet knows; write one of \(EventType.knownList)",
                severity: .warning)
        }
        var dates: [String: PassDate] = [:]
        for tag in SemanticTags.dateTags.sorted() where tags[tag] != nil {
            dates[tag] = date(tags, tag, in: base, severity: .warning)
        }
        if let start = dates["eventStartDate"], let end = dates["eventEndDate"], end.epochSeconds < start.epochSeconds {
            // Apple's validator warns on poster event tickets; an end before the start is wrong on any pass.
            invalid(
                JSONPath.member(base, "eventEndDate"),
                "eventEndDate \(end) is before eventStartDate \(start) (Apple's validator warns about this too); "
                    + "swap them or correct the end",
                severity: .warning)
        }
        for tag in ["performerNames", "artistIDs"] {
            guard let v = tags[tag] else { continue }
            if v.arrayValue?.allSatisfy({ $0.stringValue != nil }) != true {
                invalid(
                    JSONPath.member(base, tag),
                    "\(tag) is \(Checker.show(v)); write an array of strings, e.g. [\"Name\"]",
                    severity: .warning)
            }
        }
        for tag in ["totalPrice", "balance"] {
            guard let v = tags[tag] else { continue }
            guard let o = v.objectValue else {
                invalid(
                    JSONPath.member(base, tag),
                    "\(tag) is \(Checker.show(v)); write {\"amount\": \"12.50\", \"currencyCode\": \"USD\"}",
                    severity: .warning)
                continue
            }
            if let code = o["currencyCode"]?.stringValue,
                code.count != 3 || !code.allSatisfy({ $0.isASCII && $0.isUppercase })
            {
                invalid(
                    JSONPath.member(JSONPath.member(base, tag), "currencyCode"),
                    "currencyCode \"\(code)\" is not an ISO 4217 code; write three capital letters such as \"USD\"",
                    severity: .warning)
            }
        }
    }
}
