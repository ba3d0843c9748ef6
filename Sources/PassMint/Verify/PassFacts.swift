/// What the certificate and image checks need to know from pass.json and the archive.
struct PassFacts {
    /// The style the newest Wallet shows (`posterGeneric` when present), nil when the style keys are ambiguous.
    var style: String?
    /// The legacy style older systems show beside `posterGeneric`, nil on an ordinary pass.
    var fallbackStyle: String?
    var passTypeIdentifier: String?
    var teamIdentifier: String?
    var serialNumber: String?
    /// Why the pass needs an NFC certificate ("nfc" key, "personalization.json"), nil when it does not.
    var nfcRequirement: String?
    /// True when `preferredStyleSchemes` asks for a poster event ticket (different background art).
    var isPoster = false
}
