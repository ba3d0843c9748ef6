/// The pass styles. A pass holds exactly one of the five legacy style dictionaries; iOS 27's `posterGeneric`
/// may stand beside one of them (the fallback older systems show).
public enum PassStyle: String, Sendable, CaseIterable, Hashable {
    case boardingPass, coupon, eventTicket, generic, storeCard
    /// iOS 27: artwork-first membership, loyalty and store cards.
    case posterGeneric

    /// The five styles every Wallet reads.
    public static let legacy: [PassStyle] = [.boardingPass, .coupon, .eventTicket, .generic, .storeCard]

    /// True for the five styles every Wallet reads.
    public var isLegacy: Bool { self != .posterGeneric }

    /// The legacy styles Apple names as the fallback beside `posterGeneric` (a boarding pass is not one).
    public static let posterFallbacks: [PassStyle] = [.generic, .storeCard, .coupon, .eventTicket]

    /// `present` with `posterGeneric` first, because iOS 27 shows it whenever it is there; the legacy styles
    /// keep their order. One rule for the model's `style` and verify's reported style.
    public static func displayOrder(_ present: [PassStyle]) -> [PassStyle] {
        present.filter { !$0.isLegacy } + present.filter(\.isLegacy)
    }

    /// The legacy style older systems show beside `posterGeneric`, nil when `present` has no `posterGeneric`.
    public static func fallback(among present: [PassStyle]) -> PassStyle? {
        present.contains(.posterGeneric) ? present.first(where: \.isLegacy) : nil
    }
}

/// The field groups inside a style dictionary, in display order.
public enum PassFieldGroup: String, Sendable, CaseIterable, Hashable {
    case headerFields, primaryFields, secondaryFields, auxiliaryFields, backFields, additionalInfoFields
    /// iOS 27 `posterGeneric`: the field shown under the artwork.
    case footerFields
}
