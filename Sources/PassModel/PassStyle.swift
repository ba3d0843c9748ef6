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
}

/// The field groups inside a style dictionary, in display order.
public enum PassFieldGroup: String, Sendable, CaseIterable, Hashable {
    case headerFields, primaryFields, secondaryFields, auxiliaryFields, backFields, additionalInfoFields
    /// iOS 27 `posterGeneric`: the field shown under the artwork.
    case footerFields
}
