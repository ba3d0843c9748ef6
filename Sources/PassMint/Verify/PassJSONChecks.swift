import PassModel

/// pass.json: present, strict JSON (leniencies are warnings), every model rule of `PassValidator` (with the rules
/// about the archive's files that Apple's validator has); personalization.json when present.
enum PassJSONChecks {
    static func check(_ pass: PassFiles, into findings: inout Findings) -> PassFacts {
        var facts = PassFacts()
        guard let bytes = pass["pass.json"] else {
            if pass.unreadable.contains("pass.json") { return facts }
            findings.error(
                VerifyCode.passJSONMissing,
                "there is no pass.json at the root of the archive; every pass needs one", path: "pass.json")
            return facts
        }
        let document: JSONDocument
        do {
            document = try JSONReader.parse(bytes, file: "pass.json")
        } catch {
            findings.error(
                VerifyCode.passJSONInvalid,
                "pass.json is not JSON: \(error.description); fix the syntax", path: "pass.json")
            return facts
        }
        for leniency in document.leniencies {
            findings.warning(
                VerifyCode.passJSONLenient,
                "pass.json has a \(leniency.description) that strict JSON readers reject; Wallet may refuse the "
                    + "pass — remove it", path: leniency.path.isEmpty ? "pass.json" : leniency.path)
        }
        findings.problems += PassValidator.validate(
            document.value, fileNames: pass.contentNames + pass.unreadable.sorted())

        let root = document.value.objectValue ?? [:]
        let present = PassStyle.allCases.filter { root[$0.rawValue] != nil }
        // One legacy style, with or without posterGeneric beside it; two legacy styles name no style.
        if present.filter(\.isLegacy).count <= 1 {
            facts.style = PassStyle.displayOrder(present).first?.rawValue
            facts.fallbackStyle = PassStyle.fallback(among: present)?.rawValue
        }
        facts.passTypeIdentifier = root["passTypeIdentifier"]?.stringValue
        facts.teamIdentifier = root["teamIdentifier"]?.stringValue
        facts.serialNumber = root["serialNumber"]?.stringValue
        facts.isPoster = root["preferredStyleSchemes"]?.arrayValue?.contains(.string("posterEventTicket")) ?? false
        if root["nfc"] != nil {
            facts.nfcRequirement = "nfc"
        } else if pass["personalization.json"] != nil {
            facts.nfcRequirement = "personalization.json"
        }
        checkPersonalization(pass, root: root, into: &findings)
        return facts
    }

    /// personalization.json (rewards enrollment): strict JSON with `requiredPersonalizationFields` and
    /// `description`, and a pass that also has `nfc` and `webServiceURL`.
    private static func checkPersonalization(
        _ pass: PassFiles, root: [String: JSONValue],
        into findings: inout Findings
    ) {
        guard let bytes = pass["personalization.json"] else { return }
        let path = "personalization.json"
        guard let document = try? JSONReader.parse(bytes, file: path), let object = document.value.objectValue else {
            findings.error(
                VerifyCode.passPersonalizationInvalid,
                "personalization.json is not a JSON object; Wallet ignores the sign-up form", path: path)
            return
        }
        if object["requiredPersonalizationFields"]?.arrayValue?.isEmpty ?? true {
            findings.error(
                VerifyCode.passPersonalizationInvalid,
                "personalization.json needs a non-empty \"requiredPersonalizationFields\" array "
                    + "(e.g. [\"PKPassPersonalizationFieldName\"])", path: path)
        }
        if object["description"]?.stringValue == nil {
            findings.error(
                VerifyCode.passPersonalizationInvalid,
                "personalization.json needs a \"description\" string shown under the logo", path: path)
        }
        if root["nfc"] == nil || root["webServiceURL"] == nil {
            findings.error(
                VerifyCode.passPersonalizationInvalid,
                "a personalizable pass also needs \"nfc\" and \"webServiceURL\" in pass.json; add them or remove "
                    + "personalization.json", path: path)
        }
    }
}
