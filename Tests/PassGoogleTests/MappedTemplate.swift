import Foundation
import PassGoogle
import PassMintTestSupport
import PassModel
import PassTemplates

/// A template held in memory (pass.json, optional template.json, google.json, images, .lproj strings), rendered
/// for one record by PassTemplates as `generate` renders it, and mapped to Google Wallet.
struct MappedTemplate {
    static let issuerID = "3388000000022000000"
    static let imageBase = "https://passes.example.com"

    let template: Template
    let mapping: GoogleMapping

    /// - Parameters:
    ///   - files: every other file of the template by path; `icon.png` and a square `logo.png` are added unless
    ///     given (`logo: false` leaves the logo out).
    init(
        _ passJSON: JSONValue, templateJSON: JSONValue? = nil, google: JSONValue? = nil,
        files: [String: [UInt8]] = [:], logo: Bool = true
    ) throws {
        var all = files
        all["pass.json"] = JSONWriter.serialize(passJSON)
        if let templateJSON { all["template.json"] = JSONWriter.serialize(templateJSON) }
        if let google { all["google.json"] = JSONWriter.serialize(google) }
        if all["icon.png"] == nil { all["icon.png"] = pngHeader(29, 29) }
        if logo, all["logo.png"] == nil { all["logo.png"] = pngHeader(160, 160) }
        template = try Template.load(TemplateSource(name: "/templates/unit-test", files: all))
        mapping = GoogleMapping(template: template, issuerID: Self.issuerID, imageBase: Self.imageBase)
    }

    /// The record's pass, rendered and mapped.
    func map(_ record: [String: String] = [:], serial: String = "SN-0001", voided: Bool = false) throws
        -> GooglePass
    {
        let resolved = try template.resolve(record)
        let rendered = try template.render(
            resolved,
            context: RenderContext(
                serialNumber: serial, passTypeIdentifier: "pass.com.example.unit", teamIdentifier: "ABCDE12345",
                voided: voided))
        return try mapping.map(
            GoogleMappingInput(passJSON: rendered.passJSON, files: rendered.files, record: resolved.values))
    }

    /// A pass.json with the keys every pass needs, `extra` added.
    static func passJSON(_ extra: [String: JSONValue]) -> JSONValue {
        var root: [String: JSONValue] = [
            "formatVersion": 1, "serialNumber": "{{serialNumber}}", "organizationName": "PassMint Unit Tests",
            "description": "A pass of the unit tests", "passTypeIdentifier": "pass.com.example.unit",
            "teamIdentifier": "ABCDE12345",
        ]
        for (key, value) in extra { root[key] = value }
        return .object(root)
    }
}

extension JSONValue {
    /// The value as the text JSON would print (keys sorted), for "contains" checks.
    var text: String { String(decoding: JSONWriter.serialize(self, pretty: false), as: UTF8.self) }

    /// `self` with `path`'s member (`a.b`) removed or replaced.
    func setting(_ path: [String], to value: JSONValue?) -> JSONValue {
        guard var members = objectValue, let first = path.first else { return self }
        if path.count == 1 {
            members[first] = value
        } else {
            members[first] = (members[first] ?? .object([:])).setting(Array(path.dropFirst()), to: value)
        }
        return .object(members)
    }
}
