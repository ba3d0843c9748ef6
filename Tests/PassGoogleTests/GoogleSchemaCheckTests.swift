import Foundation
import PassGoogle
import PassMintTestSupport
import PassModel
import Testing

/// Tests/Tools/google-wallet-check.py, which the mapping tests and the CLI tests trust to say what Google would
/// refuse: it accepts a resource the mapping made and refuses each kind of fault, so a passing validation means
/// something.
@Suite(
    "The schema checker refuses what Google would",
    .enabled(if: GoogleWalletSupport.available, "needs /opt/passmint-pyenv (scripts/install-deps)"))
struct GoogleSchemaCheckTests {
    struct Fault: Sendable, CustomStringConvertible {
        let name: String
        let part: String
        /// The member path changed and its new value (nil removes it).
        let path: [String]
        let value: JSONValue?
        /// Text the checker's error must hold.
        let error: String
        var description: String { name }
    }

    static let faults: [Fault] = [
        Fault(
            name: "unknown property", part: "object", path: ["loyaltyPoint"], value: ["label": "POINTS"],
            error: "object.loyaltyPoint: LoyaltyObject has no property 'loyaltyPoint'"),
        Fault(
            name: "unknown nested property", part: "object", path: ["barcode", "text"], value: "x",
            error: "object.barcode.text: Barcode has no property 'text'"),
        Fault(
            name: "wrong type", part: "object", path: ["loyaltyPoints", "balance", "int"], value: "4200",
            error: "object.loyaltyPoints.balance.int: expected an integer, found str"),
        Fault(
            name: "object where a string belongs", part: "class", path: ["issuerName"], value: ["value": "x"],
            error: "class.issuerName: expected a string, found dict"),
        Fault(
            name: "deprecated lower-case enum alias", part: "object", path: ["barcode", "type"], value: "qrCode",
            error: "object.barcode.type: 'qrCode' is a deprecated value"),
        Fault(
            name: "deprecated lower-case state", part: "object", path: ["state"], value: "active",
            error: "object.state: 'active' is a deprecated value"),
        Fault(
            name: "value not in the enum", part: "class", path: ["reviewStatus"], value: "APPROVED_BY_ME",
            error: "class.reviewStatus: 'APPROVED_BY_ME' is not one of the schema's values"),
        Fault(
            name: "missing Required. field", part: "class", path: ["issuerName"], value: nil,
            error: "class.issuerName: required by LoyaltyClass and missing"),
        Fault(
            name: "int64 that is no integer", part: "object", path: ["loyaltyPoints", "balance", "money", "micros"],
            value: "12.5", error: "'12.5' is not an integer string"),
    ]

    /// A loyalty class and object as the mapping makes them.
    static func made() throws -> GooglePass {
        try MappedTemplate(
            MappedTemplate.passJSON([
                "barcodes": [["format": "PKBarcodeFormatQR", "message": "{{name}}", "messageEncoding": "iso-8859-1"]],
                "storeCard": [
                    "primaryFields": [["key": "points", "label": "POINTS", "value": "{{points}}"]],
                    "secondaryFields": [["key": "member", "label": "MEMBER", "value": "{{name}}"]],
                ],
            ]), templateJSON: ["fields": [["name": "points", "type": "integer"], ["name": "name", "type": "string"]]]
        ).map(["name": "Ada", "points": "4200"])
    }

    func check(_ json: JSONValue, part: String) throws -> GoogleWalletSupport.Check {
        try GoogleWalletSupport.checkResource(
            kind: "loyalty", part: part, json: Data(JSONWriter.serialize(json)), in: try TempDir())
    }

    @Test("the mapping's own class and object pass")
    func accepted() throws {
        let pass = try Self.made()
        #expect(pass.objectJSON["loyaltyPoints"]?["balance"]?["int"] == 4200)
        for (part, json) in [("class", pass.classJSON), ("object", pass.objectJSON)] {
            let result = try check(json, part: part)
            #expect(result.ok && result.errors.isEmpty, "\(part): \(result.errors)")
        }
    }

    @Test("each fault is refused with its path", arguments: faults)
    func refused(_ fault: Fault) throws {
        let pass = try Self.made()
        var json = fault.part == "class" ? pass.classJSON : pass.objectJSON
        if fault.path.starts(with: ["loyaltyPoints", "balance", "money"]) {
            json = json.setting(["loyaltyPoints", "balance"], to: ["money": ["currencyCode": "USD", "micros": "1"]])
        }
        json = json.setting(fault.path, to: fault.value)
        let result = try check(json, part: fault.part)
        #expect(!result.ok)
        #expect(result.errors.contains { $0.contains(fault.error) }, "\(result.errors)")
    }
}
