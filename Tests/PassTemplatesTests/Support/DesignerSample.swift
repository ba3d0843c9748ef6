import PassModel
import PassTemplates

/// A Pass Designer-style template in memory: a posterGeneric membership card with its own generic fallback, the
/// same keys in both dictionaries and in every field group.
enum DesignerSample {
    static let passJSON = """
        {"formatVersion": 1, "serialNumber": "CLUB-1", "organizationName": "Club", "description": "Club card",
         "barcodes": [{"format": "PKBarcodeFormatQR", "message": "CLUB-1", "messageEncoding": "iso-8859-1"}],
         "posterGeneric": {
           "headerFields": [{"key": "TIER", "label": "TIER", "value": "Gold", "changeMessage": "Now %@"}],
           "primaryFields": [{"key": "MEMBER_NAME", "value": "Alex Sample"},
                             {"key": "POINTS", "label": "POINTS", "value": 1200, "numberStyle": "PKNumberStyleDecimal"}],
           "footerFields": [{"key": "MEMBER_ID", "label": "ID", "value": "000123"}],
           "backFields": [{"key": "SINCE", "label": "SINCE", "value": "2021-04-01T00:00:00Z",
                           "dateStyle": "PKDateStyleMedium", "timeStyle": "PKDateStyleNone"}],
           "additionalInfoFields": [{"key": "BALANCE", "label": "BALANCE", "value": 12.5, "currencyCode": "USD"}]
         },
         "generic": {
           "headerFields": [{"key": "TIER", "label": "TIER", "value": "Gold", "changeMessage": "Now %@"}],
           "primaryFields": [{"key": "MEMBER_NAME", "label": "MEMBER", "value": "Alex Sample"}],
           "secondaryFields": [{"key": "POINTS", "label": "POINTS", "value": 1200}],
           "auxiliaryFields": [{"key": "MEMBER_ID", "label": "ID", "value": "000123"}],
           "backFields": [{"key": "SINCE", "label": "SINCE", "value": "2021-04-01T00:00:00Z",
                           "dateStyle": "PKDateStyleMedium", "timeStyle": "PKDateStyleNone"},
                          {"key": "BALANCE", "label": "BALANCE", "value": 12.5, "currencyCode": "USD"}]
         }}
        """

    static let toolingJSON = """
        {"designerVersion": "1.0", "builderVersion": "1.2", "automaticallyGenerateCompatiblePass": false}
        """

    /// The template's files; `extra` replaces or adds files (an empty string removes one).
    static func files(_ extra: [String: String] = [:]) -> [String: [UInt8]] {
        var text = ["pass.json": passJSON, "tooling.json": toolingJSON, "icon.png": "png"]
        text.merge(extra) { _, new in new }
        return text.filter { !$0.value.isEmpty }.mapValues { Array($0.utf8) }
    }

    /// The template loaded from memory under `name`.
    static func load(_ extra: [String: String] = [:], name: String = "club.pkpasstemplate") throws -> Template {
        try Template.load(TemplateSource(name: name, files: files(extra)))
    }

    /// Every `value` of a field with `key`, as `style.group` → value.
    static func values(of key: String, in pass: JSONValue) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for style in PassStyle.allCases {
            for group in PassFieldGroup.allCases {
                for item in pass[style.rawValue]?[group.rawValue]?.arrayValue ?? [] where item["key"] == .string(key) {
                    out["\(style.rawValue).\(group.rawValue)"] = item["value"]
                }
            }
        }
        return out
    }
}
