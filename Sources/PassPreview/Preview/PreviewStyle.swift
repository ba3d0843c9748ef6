import PassModel

/// The layout Wallet draws a pass in. Adds the iOS 18 poster event ticket to `PassStyle`: an event ticket that
/// asks for it in `preferredStyleSchemes` and has every semantic tag it needs (otherwise Wallet silently shows the
/// classic event ticket, and so does the preview).
public enum PreviewStyle: String, Sendable, CaseIterable {
    case boardingPass, coupon, eventTicket, posterEventTicket, generic, posterGeneric, storeCard

    /// The layout iOS 27 shows `pass` in, nil when it has no style dictionary.
    public init?(_ pass: Pass) {
        guard let style = pass.style else { return nil }
        switch style {
        case .boardingPass: self = .boardingPass
        case .coupon: self = .coupon
        case .generic: self = .generic
        case .storeCard: self = .storeCard
        case .posterGeneric: self = .posterGeneric
        case .eventTicket:
            self =
                pass.prefersPosterEventTicket && Self.missingPosterSemantics(pass).isEmpty
                ? .posterEventTicket : .eventTicket
        }
    }

    /// The style dictionary the layout draws.
    public var dictionary: PassStyle {
        switch self {
        case .boardingPass: return .boardingPass
        case .coupon: return .coupon
        case .eventTicket, .posterEventTicket: return .eventTicket
        case .generic: return .generic
        case .posterGeneric: return .posterGeneric
        case .storeCard: return .storeCard
        }
    }

    /// True for the artwork-first layouts, whose colours Wallet may derive from the artwork.
    public var isPoster: Bool { self == .posterEventTicket || self == .posterGeneric }

    /// The semantic tags a poster event ticket needs that `pass` lacks (wallet-spec §1.9), in order.
    public static func missingPosterSemantics(_ pass: Pass) -> [String] {
        let tags = pass.semantics?.tags ?? [:]
        var required = ["eventName", "venueName", "venueRegionName", "venueRoom"]
        switch tags["eventType"]?.stringValue {
        case "PKEventTypeSports"?: required += ["homeTeamAbbreviation", "awayTeamAbbreviation"]
        case "PKEventTypeLivePerformance"?: required += ["performerNames"]
        default: break
        }
        return required.filter { tag in
            switch tags[tag] {
            case .string(let s)?: return s.isEmpty
            case .array(let a)?: return a.isEmpty
            case nil: return true
            default: return false
            }
        }
    }

    /// How many fields of `group` Wallet shows in this layout (wallet-spec §2, ios27.md): the same limits
    /// `PassValidator` warns about. Secondary and auxiliary fields that share a row are cut in `visible`.
    public func limit(_ group: PassFieldGroup) -> Int {
        switch (self, group) {
        case (_, .backFields): return Int.max
        case (.posterGeneric, .headerFields): return 3
        case (.posterGeneric, .primaryFields): return 4
        case (.posterGeneric, .footerFields): return 1  // the talk: only the first is shown
        case (.posterGeneric, .additionalInfoFields): return Int.max  // drawn on the back
        case (.posterGeneric, _): return 0
        case (_, .footerFields): return 0
        case (_, .additionalInfoFields): return self == .posterEventTicket ? Int.max : 0
        case (_, .headerFields): return 3
        case (.boardingPass, .primaryFields): return 2
        case (.boardingPass, _): return 5
        case (_, .primaryFields): return 1
        case (.posterEventTicket, _): return 4
        default: return 4
        }
    }

    /// The fields of `group` that Wallet draws, in order, with `structure`'s other groups taken into account
    /// (coupon and store card share four places between secondary and auxiliary fields; so does generic when
    /// its barcode is square).
    public func visible(_ group: PassFieldGroup, in structure: PassStructure, squareBarcode: Bool) -> [PassField] {
        let fields = structure[group] ?? []
        var shown = Array(fields.prefix(limit(group)))
        let sharesRow = self == .coupon || self == .storeCard || (self == .generic && squareBarcode)
        if sharesRow, group == .auxiliaryFields {
            let secondary = min(structure.secondaryFields?.count ?? 0, 4)
            shown = Array(shown.prefix(max(0, 4 - secondary)))
        }
        if self == .eventTicket || self == .posterEventTicket, group == .auxiliaryFields {
            let first = fields.filter { ($0.row ?? 0) == 0 }.prefix(4)
            let second = fields.filter { $0.row == 1 }.prefix(4)
            shown = Array(first) + Array(second)
        }
        return shown
    }
}
