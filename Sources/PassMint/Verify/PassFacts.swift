/// What the certificate checks need to know from pass.json and the archive.
struct PassFacts {
    var style: String?
    var passTypeIdentifier: String?
    var teamIdentifier: String?
    var serialNumber: String?
    /// Why the pass needs an NFC certificate ("nfc" key, "personalization.json"), nil when it does not.
    var nfcRequirement: String?
    /// True when `preferredStyleSchemes` asks for a poster event ticket (different background art).
    var isPoster = false
}
