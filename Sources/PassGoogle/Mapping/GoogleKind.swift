/// The Google Wallet pass kinds PassMint maps Apple's styles to. The raw value is the resource's name in the
/// Wallet API (`loyalty` → `loyaltyClass`, `loyaltyObject`) and in save-link payloads (`loyaltyClasses`, …).
public enum GoogleKind: String, Sendable, CaseIterable, Hashable {
    case loyalty, eventTicket, generic, offer, flight, transit

    /// The save-link payload key for classes, e.g. `loyaltyClasses`.
    public var classPayloadKey: String { rawValue + "Classes" }
    /// The save-link payload key for objects, e.g. `loyaltyObjects`.
    public var objectPayloadKey: String { rawValue + "Objects" }
    /// The Wallet API's class resource segment, e.g. `loyaltyClass` (`…/walletobjects/v1/loyaltyClass/{id}`).
    public var classResource: String { rawValue + "Class" }
    /// The Wallet API's object resource segment, e.g. `loyaltyObject`.
    public var objectResource: String { rawValue + "Object" }
    /// The discovery document's schema names, e.g. `LoyaltyClass` and `LoyaltyObject`.
    public var schemaNames: (class: String, object: String) {
        let name = rawValue.prefix(1).uppercased() + rawValue.dropFirst()
        return (name + "Class", name + "Object")
    }

    /// Whether the kind's class must carry `reviewStatus` (every kind but generic).
    var hasReviewStatus: Bool { self != .generic }
}
