import Foundation
@_exported import PassMintTestSupport
import Testing

@testable import PassModel

/// The fixtures the PassModel tests read (tests that use them are gated on `PackagePaths.hasFixtures`).
enum Fixtures {
    /// Every `templates/*/pass.json`, by template folder name.
    static func templatePassJSONs() -> [(name: String, bytes: [UInt8])] {
        guard let dir = PackagePaths.fixtures?.appendingPathComponent("templates") else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.sorted().compactMap { name in
            let url = dir.appendingPathComponent(name).appendingPathComponent("pass.json")
            return FileManager.default.contents(atPath: url.path).map { (name, [UInt8]($0)) }
        }
    }

    /// pass.json of a .pkpass fixture, extracted with `unzip -p` (nil when the file is missing). `inner` names a
    /// .pkpass inside a .pkpasses bundle.
    static func pkpassJSON(_ file: String, inner: String? = nil) throws -> [UInt8]? {
        guard let path = PackagePaths.fixture("pkpass/\(file)") else { return nil }
        guard let inner else { return try CLI.check("unzip", ["-p", path, "pass.json"]).output }
        let folder = try TempDir()
        let innerPath = try folder.write(try CLI.check("unzip", ["-p", path, inner]).output, inner)
        return try CLI.check("unzip", ["-p", innerPath, "pass.json"]).output
    }
}

extension JSONValue {
    /// Sets (or with nil removes) the value at a JSON path such as `storeCard.primaryFields[0].value`,
    /// creating objects along the way.
    mutating func set(_ path: String, _ newValue: JSONValue?) {
        var components: [Component] = []
        for part in path.split(separator: ".") {
            var name = Substring(part)
            var indices: [Int] = []
            while let open = name.lastIndex(of: "["), name.last == "]" {
                indices.insert(Int(name[name.index(after: open)..<name.index(before: name.endIndex)])!, at: 0)
                name = name[..<open]
            }
            if !name.isEmpty { components.append(.key(String(name))) }
            components += indices.map { .index($0) }
        }
        self = Self.setting(self, components[...], newValue) ?? .null
    }

    enum Component {
        case key(String)
        case index(Int)
    }

    private static func setting(_ base: JSONValue?, _ path: ArraySlice<Component>, _ v: JSONValue?) -> JSONValue? {
        guard let first = path.first else { return v }
        switch first {
        case .key(let k):
            var o = base?.objectValue ?? [:]
            o[k] = setting(o[k], path.dropFirst(), v)
            return .object(o)
        case .index(let i):
            var a = base?.arrayValue ?? []
            while a.count <= i { a.append(.object([:])) }
            if let new = setting(a[i], path.dropFirst(), v) { a[i] = new } else { a.remove(at: i) }
            return .array(a)
        }
    }
}

/// A minimal valid store card, the base that validator tests mutate.
enum Sample {
    static var storeCard: JSONValue {
        [
            "formatVersion": 1,
            "passTypeIdentifier": "pass.com.example.loyalty",
            "serialNumber": "A1B2C3D4E5F6",
            "teamIdentifier": "ABCDE12345",
            "organizationName": "Example Coffee",
            "description": "Example Coffee loyalty card",
            "backgroundColor": "rgb(60, 65, 76)",
            "storeCard": [
                "primaryFields": [["key": "balance", "label": "Balance", "value": 21.75, "currencyCode": "USD"]],
                "secondaryFields": [["key": "member", "label": "Member", "value": "Jane"]],
                "backFields": [["key": "terms", "label": "Terms", "value": "No cash value."]],
            ],
            "barcodes": [["format": "PKBarcodeFormatQR", "message": "A1B2", "messageEncoding": "iso-8859-1"]],
        ]
    }

    static var eventTicket: JSONValue {
        var j = storeCard
        j.set("storeCard", nil)
        j.set(
            "eventTicket",
            [
                "primaryFields": [["key": "event", "label": "Event", "value": "Concert"]],
                "auxiliaryFields": [["key": "seat", "label": "Seat", "value": "12A"]],
            ])
        return j
    }

    /// An iOS 27 poster generic pass with a generic fallback; the two share field keys, as Apple's builder
    /// expects, and the first primary field has no label (drawn as a title).
    static var posterGeneric: JSONValue {
        var j = storeCard
        j.set("storeCard", nil)
        let tier: JSONValue = ["key": "tier", "label": "Tier", "value": "Gold"]
        let points: JSONValue = ["key": "points", "label": "Points", "value": 1200]
        let terms: JSONValue = ["key": "terms", "label": "Terms", "value": "No cash value."]
        j.set(
            "posterGeneric",
            [
                "headerFields": [tier], "primaryFields": [["key": "member", "value": "Jane Appleseed"]],
                "footerFields": [points], "backFields": [terms],
            ])
        j.set(
            "generic",
            [
                "headerFields": [tier],
                "primaryFields": [["key": "member", "label": "Member", "value": "Jane Appleseed"]],
                "secondaryFields": [points], "backFields": [terms],
            ])
        return j
    }

    /// A featured action of `type` leading to `url`.
    static func action(_ id: String, _ type: String = "shop", _ url: String = "https://example.com/shop") -> JSONValue {
        ["identifier": .string(id), "type": .string(type), "url": .string(url)]
    }

    static var boardingPass: JSONValue {
        var j = storeCard
        j.set("storeCard", nil)
        j.set(
            "boardingPass",
            [
                "transitType": "PKTransitTypeAir",
                "primaryFields": [["key": "from", "value": "SFO"], ["key": "to", "value": "JFK"]],
            ])
        return j
    }
}

/// Problems matching a code and path.
func findings(_ problems: [Problem], _ code: ProblemCode, _ path: String) -> [Problem] {
    problems.filter { $0.code == code && $0.path == path }
}
