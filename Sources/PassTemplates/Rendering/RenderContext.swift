/// What a rendered pass takes from outside the record: serial number, signing identity, web service.
public struct RenderContext: Sendable, Equatable {
    /// Non-nil: sets pass.json `serialNumber` and fills `{{serialNumber}}`. Nil: pass.json's own serialNumber is
    /// used (a literal one, or one built only from other placeholders); nil with `{{serialNumber}}` in it, or
    /// with no serialNumber at all, is `TemplateError.missingSerialNumber`.
    public var serialNumber: String?
    /// From the signing certificate. Fills a missing key; when the template's value differs, the certificate's
    /// wins and a warning names both.
    public var passTypeIdentifier: String?
    /// From the signing certificate; same rule as `passTypeIdentifier`.
    public var teamIdentifier: String?
    /// When set, written to pass.json (replacing the template's).
    public var webServiceURL: String?
    /// When set, written to pass.json (replacing the template's).
    public var authenticationToken: String?
    /// Per-record image files (a member photo scaled to its slot's @1x/@2x/@3x PNGs, `isPerRecord` set). Each
    /// replaces the template's or the tier's file of the same path.
    public var images: [PassFile]
    /// Derive the legacy `generic` fallback from `posterGeneric` (see `CompatibleFallback`) even when the
    /// template's tooling.json does not ask for it.
    public var compatiblePass: Bool
    /// A cancelled pass: pass.json gets `"voided": true` (Wallet greys it out and hides its barcode) whatever
    /// the template says.
    public var voided: Bool
    /// The holder signed up (rewards enrollment): `personalization.json` and `personalizationLogo*.png` are left
    /// out, so Wallet replaces the personalizable pass and asks no more.
    public var personalized: Bool

    public init(
        serialNumber: String? = nil, passTypeIdentifier: String? = nil, teamIdentifier: String? = nil,
        webServiceURL: String? = nil, authenticationToken: String? = nil, images: [PassFile] = [],
        compatiblePass: Bool = false, voided: Bool = false, personalized: Bool = false
    ) {
        self.personalized = personalized
        self.compatiblePass = compatiblePass
        self.voided = voided
        self.serialNumber = serialNumber
        self.passTypeIdentifier = passTypeIdentifier
        self.teamIdentifier = teamIdentifier
        self.webServiceURL = webServiceURL
        self.authenticationToken = authenticationToken
        self.images = images
    }
}
