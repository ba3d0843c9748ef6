import PassModel

/// boardingPass → FlightClass/FlightObject (air, when its semantics name the flight) or TransitClass/TransitObject
/// (bus, train, boat, other). What Google requires and the pass does not say sends it to Generic instead.
enum TravelMapping {
    /// The kind a boarding pass maps to: flight or transit when the pass carries what Google requires, else nil.
    static func kind(for pass: Pass, hasLogo: Bool) -> GoogleKind? {
        guard let structure = pass.boardingPass else { return nil }
        if structure.transitType == .air {
            return flightFacts(pass) == nil ? nil : .flight
        }
        return hasLogo ? .transit : nil
    }

    struct FlightFacts {
        let carrier: String, number: String, origin: String, destination: String, departure: PassDate
        let passenger: String
    }

    static func flightFacts(_ pass: Pass) -> FlightFacts? {
        guard let s = pass.semantics, let carrier = s["airlineCode"]?.stringValue,
            let number = s["flightNumber"].flatMap(digits), let origin = s["departureAirportCode"]?.stringValue,
            let destination = s["destinationAirportCode"]?.stringValue,
            let departure = (s["originalDepartureDate"] ?? s["currentDepartureDate"])?.stringValue
                .flatMap(PassDate.init(parsing:)),
            let passenger = personName(s["passengerName"])
        else { return nil }
        return FlightFacts(
            carrier: carrier, number: number, origin: origin, destination: destination, departure: departure,
            passenger: passenger)
    }

    static func buildFlight(_ ctx: inout MappingContext) {
        guard let facts = flightFacts(ctx.pass) else { return }
        let s = ctx.pass.semantics
        ctx.klass["issuerName"] = ctx.pass.organizationName.map(JSONValue.string)
        ctx.klass["reviewStatus"] = "UNDER_REVIEW"
        ctx.klass["flightHeader"] = [
            "carrier": ["carrierIataCode": .string(facts.carrier)], "flightNumber": .string(facts.number),
        ]
        ctx.klass["origin"] = ["airportIataCode": .string(facts.origin)]
        ctx.klass["destination"] = ["airportIataCode": .string(facts.destination)]
        ctx.klass["localScheduledDepartureDateTime"] = .string(localDateTime(facts.departure))
        CommonModules.colour(&ctx, objectLevel: true)
        ctx.object["passengerName"] = .string(facts.passenger)
        var reservation: [String: JSONValue] = [:]
        if let code = s?["confirmationNumber"]?.stringValue { reservation["confirmationCode"] = .string(code) }
        ctx.object["reservationInfo"] = .object(reservation)
        var boarding: [String: JSONValue] = [:]
        if let seat = s?["seats"]?.arrayValue?.first?["seatNumber"]?.stringValue {
            boarding["seatNumber"] = .string(seat)
        }
        if let group = s?["boardingGroup"]?.stringValue { boarding["boardingGroup"] = .string(group) }
        if !boarding.isEmpty { ctx.object["boardingAndSeatingInfo"] = .object(boarding) }
        _ = ctx.take(keys: FieldSlots.holderName + ["passengername"])
    }

    static func buildTransit(_ ctx: inout MappingContext) {
        let pass = ctx.pass
        let s = pass.semantics
        ctx.klass["issuerName"] = pass.organizationName.map(JSONValue.string)
        ctx.klass["reviewStatus"] = "UNDER_REVIEW"
        ctx.klass["logo"] = ctx.images["logo"]?.json
        ctx.klass["transitType"] = .string(transitType(pass.boardingPass?.transitType))
        CommonModules.colour(&ctx, objectLevel: true)
        ctx.object["tripType"] = "ONE_WAY"
        var leg: [String: JSONValue] = [:]
        if let origin = s?["departureStationName"]?.stringValue ?? s?["departureLocationDescription"]?.stringValue {
            leg["originName"] = ctx.text.localized(origin)
        }
        if let destination = s?["destinationStationName"]?.stringValue
            ?? s?["destinationLocationDescription"]?.stringValue
        {
            leg["destinationName"] = ctx.text.localized(destination)
        }
        if let departure = (s?["originalDepartureDate"] ?? s?["currentDepartureDate"])?.stringValue
            .flatMap(PassDate.init(parsing:))
        {
            leg["departureDateTime"] = .string(localDateTime(departure))
        }
        if !leg.isEmpty { ctx.object["ticketLeg"] = .object(leg) }
        if let name = personName(s?["passengerName"]) { ctx.object["passengerNames"] = .string(name) }
    }

    static func transitType(_ type: TransitType?) -> String {
        switch type {
        case .bus?: return "BUS"
        case .train?: return "RAIL"
        case .boat?: return "FERRY"
        default: return "OTHER"
        }
    }

    /// Google's local date-time: the date's own wall time, without offset.
    static func localDateTime(_ date: PassDate) -> String {
        String(date.description.prefix(19))
    }

    private static func digits(_ value: JSONValue) -> String? {
        let text = value.stringValue ?? (value.doubleValue.map { String(Int64($0)) })
        guard let text, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return text
    }

    private static func personName(_ value: JSONValue?) -> String? {
        guard let object = value?.objectValue else { return value?.stringValue }
        let parts = ["givenName", "middleName", "familyName"].compactMap { object[$0]?.stringValue }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
