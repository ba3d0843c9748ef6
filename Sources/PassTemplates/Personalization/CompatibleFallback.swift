import PassModel

/// Derives the legacy `generic` dictionary that iOS 26 and earlier show from a `posterGeneric` one, for
/// templates whose tooling.json sets `automaticallyGenerateCompatiblePass` (or when the issuer asks for it).
///
/// Only when pass.json has `posterGeneric` and no legacy style dictionary (`generic`, `storeCard`, `coupon`,
/// `eventTicket`, `boardingPass`): a template's own fallback always wins. The mapping (field dictionaries are
/// copied whole, keys included, so personalization by key fills both dictionaries):
///
/// | posterGeneric                          | generic           |
/// |----------------------------------------|-------------------|
/// | `headerFields`                         | `headerFields`    |
/// | first of `primaryFields`               | `primaryFields`   |
/// | further `primaryFields`                | `secondaryFields` |
/// | `footerFields`                         | `auxiliaryFields` |
/// | `backFields`, then `additionalInfoFields` | `backFields`   |
///
/// `generic` has no footer or additional-info row; the back is where older Wallets show extra information.
enum CompatibleFallback {
    /// `root` with a derived `generic`, or unchanged when no fallback is needed or possible.
    static func apply(to root: inout [String: JSONValue]) {
        guard let poster = root[PassStyle.posterGeneric.rawValue]?.objectValue,
            !PassStyle.legacy.contains(where: { root[$0.rawValue] != nil })
        else { return }
        root[PassStyle.generic.rawValue] = .object(generic(from: poster))
    }

    /// The `generic` dictionary for one `posterGeneric` dictionary (see the table above).
    static func generic(from poster: [String: JSONValue]) -> [String: JSONValue] {
        func fields(_ group: PassFieldGroup) -> [JSONValue] { poster[group.rawValue]?.arrayValue ?? [] }
        let primaries = fields(.primaryFields)
        let groups: [(PassFieldGroup, [JSONValue])] = [
            (.headerFields, fields(.headerFields)),
            (.primaryFields, Array(primaries.prefix(1))),
            (.secondaryFields, Array(primaries.dropFirst())),
            (.auxiliaryFields, fields(.footerFields)),
            (.backFields, fields(.backFields) + fields(.additionalInfoFields)),
        ]
        var out: [String: JSONValue] = [:]
        for (group, items) in groups where !items.isEmpty { out[group.rawValue] = .array(items) }
        return out
    }
}
