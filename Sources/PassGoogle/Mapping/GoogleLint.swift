import PassModel
import PassTemplates

/// What Google Wallet would not show of a pass, as design-review rows: a stable code, the pass.json path or
/// file, the value now, what Google gets instead, and what an Android holder sees differently.
public enum GoogleLint {
    /// One row (`passmint lint --google`).
    public struct Row: Sendable, Hashable {
        public let code: String
        public let path: String
        public let before: String
        public let after: String
        public let change: String
    }

    /// Stable codes; add, never rename.
    public static let unmappedCode = "google.unmapped"
    public static let longTextCode = "google.long-text"
    public static let notShownCode = "google.not-shown"
    public static let logoCode = "google.logo-not-square"
    public static let styleCode = "google.style-fallback"
    public static let refusedCode = "google.refused"

    /// Maps the pass (a template rendered with its defaults, or an issued pass) and words its gaps; a pass Google
    /// would refuse gives one `google.refused` row with the reason.
    public static func rows(template: Template, passJSON: JSONValue, files: [PassFile], record: [String: String])
        -> [Row]
    {
        // Any issuer and base: the rows do not depend on them.
        let mapping = GoogleMapping(template: template, issuerID: "1", imageBase: "https://passes.example.invalid")
        do {
            let pass = try mapping.map(GoogleMappingInput(passJSON: passJSON, files: files, record: record))
            return pass.gaps.map(row)
        } catch {
            return [
                Row(
                    code: refusedCode, path: "", before: "—", after: "a pass Google Wallet accepts",
                    change: "Google refuses this pass as it is: \(error.description)")
            ]
        }
    }

    static func row(_ gap: GoogleGap) -> Row {
        switch gap.reason {
        case .noCounterpart:
            return Row(
                code: unmappedCode, path: gap.path, before: "\"\(gap.path)\"", after: "—",
                change: "Google Wallet has nothing like it: Android holders do not get it")
        case .imageHasNoSlot:
            return Row(
                code: unmappedCode, path: gap.path, before: gap.path, after: "—",
                change: "Google Wallet has no place for this image: Android holders do not see it")
        case .barcodeFormat(let format):
            return Row(
                code: unmappedCode, path: gap.path, before: "\"\(format)\"",
                after: "a QR, PDF417, Aztec, Code 128, Code 39, Codabar, EAN-13 or 14-digit ITF barcode",
                change: "Google Wallet cannot draw this barcode: Android holders get the next one, or its text only")
        case .extraBarcode:
            return Row(
                code: unmappedCode, path: gap.path, before: gap.path, after: "—",
                change: "Google Wallet shows one barcode, the first it can draw: Android holders do not get this one")
        case .styleFallback(let kind):
            return Row(
                code: styleCode, path: gap.path, before: "\"\(gap.path)\"", after: "Google \(kind.rawValue) pass",
                change:
                    "the pass lacks what Google's own kind needs (flight: airline, flight number, airports, departure "
                    + "and passenger in semantics; transit: a logo), so Android holders get a generic card")
        case .longerThanRecommended(let googlePath, let count, let limit):
            return Row(
                code: longTextCode, path: gap.path, before: "\(count) characters", after: "at most \(limit) characters",
                change: "Google recommends at most \(limit) characters for \(googlePath): the phone may cut the rest")
        case .moreThanShown(let googlePath, let count, let limit):
            return Row(
                code: notShownCode, path: gap.path, before: "\(count) entries", after: "at most \(limit)",
                change: "Google Wallet shows \(limit) of \(googlePath): Android holders do not see the others")
        case .logoNotSquare(let width, let height):
            return Row(
                code: logoCode, path: gap.path, before: "\(width)×\(height)",
                after: "a square logo of at least 660×660 (google.json class or object logo)",
                change: "Google masks logos to a circle: the sides of a wide logo are cut")
        }
    }
}
