/// The five pass styles; exactly one of these keys must hold the pass's fields dictionary.
public enum PassStyle: String, Sendable, CaseIterable, Hashable {
    case boardingPass, coupon, eventTicket, generic, storeCard
}

/// The field groups inside a style dictionary, in display order.
public enum PassFieldGroup: String, Sendable, CaseIterable, Hashable {
    case headerFields, primaryFields, secondaryFields, auxiliaryFields, backFields, additionalInfoFields
}
