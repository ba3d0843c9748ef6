import PassModel

/// One pass as Google Wallet gets it: its class (shared by every pass with the same class fields: a template,
/// and per tier or event where those change class fields) and its object.
public struct GooglePass: Sendable, Equatable {
    public let kind: GoogleKind
    /// `<issuerID>.<template>-<12 hex of the class's content>` unless google.json gives `class.id`.
    public let classID: String
    /// The class resource, `id` included.
    public let classJSON: JSONValue
    /// `<issuerID>.<serial number>` unless google.json gives `object.id`.
    public let objectID: String
    /// The object resource, `id` and `classId` included.
    public let objectJSON: JSONValue
    /// What Google cannot show of the Apple pass, and texts Google may cut.
    public let gaps: [GoogleGap]
}

/// Something of the Apple pass that Google Wallet does not show as Apple Wallet does (`passmint lint`'s rows).
public struct GoogleGap: Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// Google has no counterpart for this key (beacons, NFC, foregroundColor, …).
        case noCounterpart
        /// An image with no slot in the Google kind.
        case imageHasNoSlot
        /// A barcode format Google cannot draw (or a message it cannot encode in it).
        case barcodeFormat(String)
        /// Google shows one barcode; this one is left out.
        case extraBarcode
        /// The style has no Google kind its content fits; mapped to `kind` instead.
        case styleFallback(GoogleKind)
        /// Longer than Google recommends for its place (the phone may cut it).
        case longerThanRecommended(googlePath: String, count: Int, limit: Int)
        /// More entries than Google shows (the rest are kept but not displayed).
        case moreThanShown(googlePath: String, count: Int, limit: Int)
        /// The logo is not square; Google masks logos to a circle.
        case logoNotSquare(width: Int, height: Int)
    }

    /// About a text module of the class (its length, or how many the class has).
    var isAboutClassModules: Bool {
        switch reason {
        case .longerThanRecommended(let googlePath, _, _), .moreThanShown(let googlePath, _, _):
            return googlePath.hasPrefix("class.")
        default: return false
        }
    }

    /// The pass.json path or the file it is about.
    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }
}
