/// Checks raw pass.json against Wallet's rules (wallet-spec §8 items 10–18, plus the poster-ticket fallback
/// of item 19 and the field-count display limits of §2 as warnings). Works on `JSONValue`, not `Pass`, so it can
/// report values a typed pass cannot even hold. Leniencies of the JSON text itself (item 10: trailing commas,
/// comments) need the bytes: use `validate(passJSON:)` for those.
public enum PassValidator {
    /// Every finding, each with its JSON path, grouped by section: required keys, styles and fields, top-level
    /// types and colours, barcodes, relevance, web service and apps, semantics and poster, featured actions, keys
    /// Apple has not confirmed, unknown top-level keys.
    public static func validate(_ json: JSONValue) -> [Problem] {
        var c = Checker()
        guard case .object(let root) = json else {
            c.invalid("", "pass.json is \(Checker.show(json)) at the top level; it must be a JSON object { … }")
            return c.problems
        }
        for section in sections { section.run(&c, root) }
        return c.problems
    }

    /// True when `validate` finds no errors (warnings allowed).
    public static func isValid(_ json: JSONValue) -> Bool {
        !validate(json).contains { $0.severity == .error }
    }
}

extension Checker {
    static let requiredHints: [(String, String)] = [
        (
            "passTypeIdentifier",
            "your Pass Type ID, e.g. \"pass.com.example.loyalty\" (it must match the signing certificate)"
        ),
        ("serialNumber", "a string unique within the pass type, e.g. \"A1B2C3D4E5F6\""),
        ("teamIdentifier", "your 10-character Team ID, the OU of the signing certificate"),
        ("organizationName", "the name of the organisation that issues the pass"),
        ("description", "a short description VoiceOver reads, e.g. \"Loyalty card\""),
    ]

    mutating func checkRequired(_ root: [String: JSONValue]) {
        switch root["formatVersion"] {
        case nil:
            error(
                PassProblemCode.missingKey, "formatVersion",
                "pass.json has no \"formatVersion\"; add \"formatVersion\": 1")
        case .integer(1)?:
            break
        case .double(1)?:
            break
        case .string(let s)?:
            invalid("formatVersion", "formatVersion is the string \"\(s)\"; write the number 1 without quotes")
        case let v?:
            invalid(
                "formatVersion",
                "formatVersion is \(Checker.show(v)); write \"formatVersion\": 1, the only version Wallet reads")
        }
        for (key, hint) in Self.requiredHints {
            _ = requiredString(root, key, in: "", hint: hint)
        }
        if let id = root["passTypeIdentifier"]?.stringValue, !id.isEmpty, !id.hasPrefix("pass.") {
            invalid(
                "passTypeIdentifier",
                "passTypeIdentifier \"\(id)\" does not start with \"pass.\"; Apple's Pass Type IDs look like \"pass.com.example.loyalty\" and must match the certificate",
                severity: .warning)
        }
    }

    /// Top-level strings that other sections check (required keys, dates, URLs and service keys).
    static let stringKeysCheckedElsewhere: Set<String> = [
        "passTypeIdentifier", "serialNumber", "teamIdentifier", "organizationName", "description",
        "relevantDate", "expirationDate", "webServiceURL", "authenticationToken", "appLaunchURL",
        "groupingIdentifier",
    ]

    mutating func checkTopLevelTypes(_ root: [String: JSONValue]) {
        // Plain strings only.
        for (key, _) in Pass.stringKeys where !Self.stringKeysCheckedElsewhere.contains(key) {
            guard let s = string(root, key, in: "") else { continue }
            if Self.isURLKey(key), !s.isEmpty, !Self.hasScheme(s) {
                invalid(
                    key,
                    "\(key) \"\(s)\" is not an absolute URL; write it with its scheme, e.g. \"https://example.com/…\"",
                    severity: .warning)
            }
        }
        for (key, _) in Pass.boolKeys { _ = bool(root, key, in: "") }
        for (key, _) in Pass.colorKeys { checkColor(root, key) }
        if let v = root["upcomingPassInformation"], v.arrayValue == nil {
            wrongType("upcomingPassInformation", v, expected: "an array [ … ] of upcoming pass entries")
        }
    }

    static func isURLKey(_ key: String) -> Bool {
        key.hasSuffix("URL") || key == "contactVenueWebsite"
    }

    static func hasScheme(_ s: String) -> Bool {
        guard let colon = s.firstIndex(of: ":"), colon > s.startIndex else { return false }
        let scheme = s[..<colon]
        return scheme.first!.isLetter && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }

    mutating func checkColor(_ root: [String: JSONValue], _ key: String) {
        guard let s = string(root, key, in: "") else { return }
        if PassColor.isStrict(s) { return }
        if let c = PassColor.parse(s) {
            invalid(
                key,
                "\(key) \"\(s)\" is not in the form Wallet reads; write \"\(PassColor.format(r: c.r, g: c.g, b: c.b))\""
            )
        } else {
            invalid(
                key,
                "\(key) \"\(s)\" is not a colour; write rgb(r, g, b) with whole numbers 0–255, e.g. \"rgb(60, 65, 76)\""
            )
        }
    }
}
