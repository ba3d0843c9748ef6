import Foundation
import Testing

@testable import PassModel

/// A plan must find exactly what the validator finds for a pass whose varying keys changed, which holds only when
/// every section declares the keys it reads: each test changes one top-level key's values and compares.
@Suite("Validation plans")
struct ValidationPlanTests {
    /// What a hole can put where a template had a string or a number: text of every kind a check looks at.
    static let replacements: [JSONValue] = [
        "", " ", "x", "not a date", "2027-02-30T10:00:00Z", "2027-01-01T10:00:00+01:00", "#ff0000", "rgb(1, 2, 3)",
        "http://example.com", "ftp:/x", "<b>bold</b>", "PKBarcodeFormatQR", "pass.com.example", "short",
        .integer(0), .integer(-1), .double(2.5), .integer(42),
    ]

    /// `value` with every string and number leaf replaced by `leaf`.
    static func replacingLeaves(_ value: JSONValue, with leaf: JSONValue) -> JSONValue {
        switch value {
        case .string, .integer, .double: return leaf
        case .array(let items): return .array(items.map { replacingLeaves($0, with: leaf) })
        case .object(let members): return .object(members.mapValues { replacingLeaves($0, with: leaf) })
        case .null, .bool: return value
        }
    }

    /// For each top-level key of `root`, every replacement of its leaves gives the validator's findings.
    static func expectPlanMatches(_ root: [String: JSONValue], _ name: String) {
        for key in root.keys.sorted() {
            let plan = ValidationPlan(root, varying: [key], varyingFields: nil)
            for leaf in replacements {
                var changed = root
                changed[key] = replacingLeaves(root[key]!, with: leaf)
                let expected = PassValidator.validate(.object(changed))
                #expect(plan.validate(changed) == expected, "\(name): \(key) ← \(leaf)")
            }
        }
    }

    @Test("a plan varying one key finds what the validator finds, for each key of Apple-style passes")
    func builtPasses() throws {
        let store: JSONValue = [
            "formatVersion": 1, "passTypeIdentifier": "pass.com.example", "serialNumber": "S1",
            "teamIdentifier": "ABCDE12345", "organizationName": "Org", "description": "Card", "logoText": "Logo",
            "foregroundColor": "rgb(255, 255, 255)", "backgroundColor": "rgb(1, 2, 3)",
            "webServiceURL": "https://example.com/", "authenticationToken": "0123456789abcdef0123",
            "relevantDate": "2027-01-01T10:00:00Z", "expirationDate": "2027-02-01T10:00:00Z",
            "groupingIdentifier": "g", "appLaunchURL": "app://x", "associatedStoreIdentifiers": [123],
            "barcodes": [
                ["format": "PKBarcodeFormatQR", "message": "M", "messageEncoding": "iso-8859-1", "altText": "A"]
            ],
            "locations": [["latitude": 1.5, "longitude": 2.5, "relevantText": "near"]],
            "featuredActions": [["identifier": "a", "type": "shop", "url": "https://example.com/shop"]],
            "semantics": ["eventName": "E", "eventStartDate": "2027-01-01T10:00:00Z"],
            "preferredStyleSchemes": ["posterEventTicket"],
            "nfc": ["message": "m", "encryptionPublicKey": "AAAA", "requiresAuthentication": true],
            "storeCard": [
                "headerFields": [["key": "tier", "label": "TIER", "value": "Gold", "changeMessage": "Now %@"]],
                "primaryFields": [["key": "p", "value": 5, "numberStyle": "PKNumberStyleDecimal"]],
                "secondaryFields": [["key": "b", "value": 1.5, "currencyCode": "USD"]],
                "auxiliaryFields": [
                    [
                        "key": "d", "value": "2027-01-01T10:00:00Z", "dateStyle": "PKDateStyleMedium",
                        "timeStyle": "PKDateStyleNone",
                    ]
                ],
                "backFields": [["key": "back", "value": "text", "attributedValue": "<a href=\"x\">x</a>"]],
            ],
        ]
        Self.expectPlanMatches(try #require(store.objectValue), "storeCard")
        var ticket = try #require(store.objectValue)
        ticket["eventTicket"] = ticket.removeValue(forKey: "storeCard")
        Self.expectPlanMatches(ticket, "eventTicket")
    }

    @Test(
        "a plan varying one key finds what the validator finds, for each key of the fixture templates",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
    func fixtures() throws {
        let fixtures = Fixtures.templatePassJSONs()
        try #require(!fixtures.isEmpty)
        for (name, bytes) in fixtures {
            let root = try #require(JSONReader.parse(bytes, file: "\(name)/pass.json").value.objectValue)
            Self.expectPlanMatches(root, name)
        }
    }

    @Test(
        "a plan varying one pass field re-checks that field (or only its value) and keeps the others' findings, duplicate keys included"
    )
    func fieldSites() throws {
        let root: [String: JSONValue] = [
            "formatVersion": 1, "passTypeIdentifier": "pass.com.example", "serialNumber": "S",
            "teamIdentifier": "ABCDE12345", "organizationName": "O", "description": "D",
            "barcodes": [["format": "PKBarcodeFormatQR", "message": "M", "messageEncoding": "iso-8859-1"]],
            "posterGeneric": [
                "primaryFields": [["key": "a", "value": "x"], ["key": "a", "value": "dup within poster"]]
            ],
            "generic": [
                "headerFields": [["key": "h", "value": "v", "changeMessage": "Now %@"]],
                "primaryFields": [["key": "a", "value": 1, "numberStyle": "PKNumberStyleDecimal"]],
                "secondaryFields": [["key": "h", "value": "dup"], ["key": "s", "value": "2027-01-01T00:00:00Z"]],
                "backFields": [
                    [
                        "key": "d", "value": "2027-01-01T00:00:00Z", "dateStyle": "PKDateStyleShort",
                        "timeStyle": "PKDateStyleNone", "attributedValue": "<a href=\"x\">x</a>",
                    ]
                ],
            ],
        ]
        try #require(
            !PassValidator.validate(.object(root)).filter { $0.code == PassProblemCode.duplicateFieldKey }.isEmpty)
        for style in [PassStyle.posterGeneric, .generic] {
            let dict = try #require(root[style.rawValue]?.objectValue)
            for group in PassFieldGroup.allCases {
                for (index, field) in (dict[group.rawValue]?.arrayValue ?? []).enumerated() {
                    let site = FieldSite(style: style, group: group, index: index)
                    let cases = [FieldChange.members, .value].flatMap { c in Self.replacements.map { (c, $0) } }
                    for (change, leaf) in cases {
                        let plan = ValidationPlan(root, varying: [style.rawValue], varyingFields: [site: change])
                        var changedField = try #require(field.objectValue)
                        for (member, value) in changedField
                        where change == .members ? member != "key" : member == "value" {
                            changedField[member] = Self.replacingLeaves(value, with: leaf)
                        }
                        var changed = root
                        var items = try #require(dict[group.rawValue]?.arrayValue)
                        items[index] = .object(changedField)
                        var changedDict = dict
                        changedDict[group.rawValue] = .array(items)
                        changed[style.rawValue] = .object(changedDict)
                        #expect(
                            plan.validate(changed) == PassValidator.validate(.object(changed)),
                            "\(style.rawValue).\(group.rawValue)[\(index)] \(change) ← \(leaf)")
                    }
                }
            }
        }
    }

    @Test(
        "a plan whose fields vary only in their values finds what the validator finds with several values changed at once, barcodes varying too, or a field gone"
    )
    func fieldValuesTogether() throws {
        let fields: JSONValue = [
            "headerFields": [["key": "tier", "value": "Gold", "changeMessage": "Now %@"]],
            "primaryFields": [["key": "points", "value": 10, "numberStyle": "PKNumberStyleDecimal"]],
            "secondaryFields": [
                ["key": "name", "value": "A"], ["key": "name", "value": "duplicate key"],
                ["key": "due", "value": "2027-01-01T00:00:00Z", "dateStyle": "PKDateStyleShort"],
            ],
            // Five in one row with a square barcode: a generic pass's count warning then depends on the barcode.
            "auxiliaryFields": [["key": "x", "value": "1"], ["key": "y", "value": "2"]],
        ]
        /// `root` with the value of each field at `sites` set to `leaf`.
        func changing(_ root: [String: JSONValue], _ sites: [FieldSite], to leaf: JSONValue) throws -> [String:
            JSONValue]
        {
            var changed = root
            for site in sites {
                var dict = try #require(changed[site.style.rawValue]?.objectValue)
                var items = try #require(dict[site.group.rawValue]?.arrayValue)
                var field = try #require(items[site.index].objectValue)
                field["value"] = leaf
                items[site.index] = .object(field)
                dict[site.group.rawValue] = .array(items)
                changed[site.style.rawValue] = .object(dict)
            }
            return changed
        }
        for style in [PassStyle.storeCard, .generic] {
            let root: [String: JSONValue] = [
                "formatVersion": 1, "passTypeIdentifier": "pass.com.example", "serialNumber": "S",
                "teamIdentifier": "ABCDE12345", "organizationName": "O", "description": "D",
                "barcodes": [["format": "PKBarcodeFormatPDF417", "message": "M", "messageEncoding": "iso-8859-1"]],
                style.rawValue: fields,
            ]
            let sites = [
                FieldSite(style: style, group: .headerFields, index: 0),
                FieldSite(style: style, group: .primaryFields, index: 0),
                FieldSite(style: style, group: .secondaryFields, index: 2),
            ]
            let varyingFields = Dictionary(uniqueKeysWithValues: sites.map { ($0, FieldChange.value) })
            let plan = ValidationPlan(root, varying: [style.rawValue], varyingFields: varyingFields)
            // The field counts of a generic pass read the barcode's format: with barcodes varying too, they are
            // checked per pass.
            let withBarcodes = ValidationPlan(
                root, varying: [style.rawValue, "barcodes"], varyingFields: varyingFields)
            #expect(plan.replaysStyles)
            #expect(withBarcodes.replaysStyles == (style != .generic))
            for leaf in Self.replacements {
                let changed = try changing(root, sites, to: leaf)
                #expect(plan.validate(changed) == PassValidator.validate(.object(changed)), "\(style) ← \(leaf)")
                var square = changed
                square["barcodes"] = [["format": "PKBarcodeFormatQR", "message": "M", "messageEncoding": "iso-8859-1"]]
                #expect(
                    withBarcodes.validate(square) == PassValidator.validate(.object(square)),
                    "\(style) with a QR code ← \(leaf)")
                if style == .generic {
                    let tooMany = { (problems: [Problem]) in
                        problems.contains { $0.code == PassProblemCode.tooManyFields }
                    }
                    #expect(tooMany(withBarcodes.validate(square)) && !tooMany(withBarcodes.validate(changed)))
                }
            }
            // A field whose other members vary is checked the whole way.
            let members = ValidationPlan(
                root, varying: [style.rawValue], varyingFields: [sites[0]: .value, sites[1]: .members])
            #expect(!members.replaysStyles)
            // A pass without one of the fields (not of the plan's shape) is still checked the whole way.
            var missing = root
            var dict = try #require(missing[style.rawValue]?.objectValue)
            dict["primaryFields"] = .array([])
            missing[style.rawValue] = .object(dict)
            #expect(plan.validate(missing) == PassValidator.validate(.object(missing)))
        }
    }

    @Test("keys that do not vary keep their findings; a plan with nothing varying repeats the validator")
    func fixedFindings() throws {
        let root: [String: JSONValue] = [
            "formatVersion": 1, "passTypeIdentifier": "com.example", "serialNumber": "S", "teamIdentifier": "T",
            "organizationName": "", "description": "D", "generic": ["primaryFields": [["key": "k", "value": "v"]]],
        ]
        let plan = ValidationPlan(root, varying: [], varyingFields: nil)
        #expect(plan.validate(root) == PassValidator.validate(.object(root)))
        #expect(plan.validate(root).contains { $0.path == "organizationName" && $0.severity == .error })
    }
}
