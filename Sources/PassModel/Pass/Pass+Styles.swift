/// A field together with where it sits in the pass.
public struct LocatedField: Sendable, Equatable {
    public var style: PassStyle
    public var group: PassFieldGroup
    public var index: Int
    public var field: PassField
    /// JSON path such as `storeCard.primaryFields[0]`.
    public var path: String

    public init(style: PassStyle, group: PassFieldGroup, index: Int, field: PassField, path: String) {
        self.style = style
        self.group = group
        self.index = index
        self.field = field
        self.path = path
    }
}

extension Pass {
    /// The style dictionary for `style`.
    public subscript(style: PassStyle) -> PassStructure? {
        get {
            switch style {
            case .boardingPass: return boardingPass
            case .coupon: return coupon
            case .eventTicket: return eventTicket
            case .generic: return generic
            case .storeCard: return storeCard
            case .posterGeneric: return posterGeneric
            }
        }
        set {
            switch style {
            case .boardingPass: boardingPass = newValue
            case .coupon: coupon = newValue
            case .eventTicket: eventTicket = newValue
            case .generic: generic = newValue
            case .storeCard: storeCard = newValue
            case .posterGeneric: posterGeneric = newValue
            }
        }
    }

    /// Every style key that is present, the displayed one first (see `PassStyle.displayOrder`). A valid pass
    /// has one legacy style, and optionally `posterGeneric` beside it.
    public var styles: [PassStyle] { PassStyle.displayOrder(PassStyle.allCases.filter { self[$0] != nil }) }

    /// The style iOS 27 shows: `posterGeneric` when present, otherwise the first style key present; nil when
    /// there is none.
    public var style: PassStyle? { styles.first }

    /// The legacy style dictionary iOS 26 and earlier show in place of `posterGeneric`; nil when the pass has no
    /// `posterGeneric` (its `style` is what every system shows) or no legacy style beside it.
    public var fallbackStyle: PassStyle? { PassStyle.fallback(among: styles) }

    /// The dictionary of `style`; setting it when there is no style does nothing.
    public var structure: PassStructure? {
        get { style.flatMap { self[$0] } }
        set { if let style { self[style] = newValue } }
    }

    /// Every field of every style and group, in display order, with its JSON path: for a poster generic pass the
    /// `posterGeneric` fields first, then its fallback's (the two may share keys).
    public var fields: [LocatedField] {
        var out: [LocatedField] = []
        for style in styles {
            guard let s = self[style] else { continue }
            for group in PassFieldGroup.allCases {
                for (i, f) in (s[group] ?? []).enumerated() {
                    let path = JSONPath.index(JSONPath.member(style.rawValue, group.rawValue), i)
                    out.append(LocatedField(style: style, group: group, index: i, field: f, path: path))
                }
            }
        }
        return out
    }

    /// The first field with this key, in any group (on a poster generic pass, the `posterGeneric` one).
    public func field(forKey key: String) -> PassField? {
        fields.first { $0.field.key == key }?.field
    }

    /// True when `preferredStyleSchemes` asks for the iOS 18 poster layout.
    public var prefersPosterEventTicket: Bool {
        preferredStyleSchemes?.contains(.posterEventTicket) ?? false
    }
}
