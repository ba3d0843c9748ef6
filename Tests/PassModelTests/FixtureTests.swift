import Foundation
import Testing

@testable import PassModel

@Suite("Real pass fixtures: pass.json round trip and validation")
struct FixtureTests {
    /// The input with every parseable colour rewritten to `rgb(r, g, b)`, the only change the strict form may make.
    static func normalisingColours(_ v: JSONValue) -> JSONValue {
        guard case .object(var o) = v else { return v }
        for key in ["foregroundColor", "backgroundColor", "labelColor", "stripColor", "footerBackgroundColor"] {
            if let s = o[key]?.stringValue, let c = PassColor.parse(s) {
                o[key] = .string(PassColor.format(r: c.r, g: c.g, b: c.b))
            }
        }
        return .object(o)
    }

    @Test(
        "every template pass.json round-trips through Pass unchanged apart from colour normalisation",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
    func roundTrip() throws {
        let fixtures = Fixtures.templatePassJSONs()
        try #require(!fixtures.isEmpty)
        for (name, bytes) in fixtures {
            let doc = try JSONReader.parse(bytes, file: "\(name)/pass.json")
            let pass = try Pass(json: doc.value)
            let expected = Self.normalisingColours(doc.value)
            #expect(pass.jsonValue == expected, "\(name)")
            #expect(pass.jsonBytes() == JSONWriter.serialize(expected), "\(name)")
            // The strict bytes read back strictly and give the same pass.
            let reread = try JSONReader.parse(pass.jsonBytes())
            #expect(reread.isStrict, "\(name)")
            #expect(try Pass(json: reread.value) == pass, "\(name)")
            #expect(pass.unknownKeyPaths.isEmpty, "\(name): \(pass.unknownKeyPaths)")
        }
    }

    @Test(
        "Apple's and django-walletpass's sample passes have no validation errors",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
    func templatesValidate() throws {
        for (name, bytes) in Fixtures.templatePassJSONs() {
            let problems = PassValidator.validate(try JSONReader.parse(bytes).value)
            for p in problems { print("\(name): \(p)") }
            #expect(!problems.contains { $0.isError }, "\(name)")
        }
    }

    @Test(
        "signed real-world passes: Apple's samples and a PassSource boarding pass are clean; Apple's generic sample only draws style warnings",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
    func pkpassFixtures() throws {
        let board = try #require(try Fixtures.pkpassJSON("ueman__boarding_pass_ui.pkpass"))
        let generic = try #require(try Fixtures.pkpassJSON("ueman__generic_with_invalid_checksum.pkpass"))
        let boardJSON = try JSONReader.parse(board).value
        let boardProblems = PassValidator.validate(boardJSON)
        for p in boardProblems { print("boarding_pass_ui: \(p)") }
        #expect(boardProblems.isEmpty)
        // Compact "rgb(76,163,213)" is accepted, and written with spaces.
        let parsed = try Pass.parse(boardJSON)
        #expect(parsed.pass.backgroundColor == .rgb(red: 76, green: 163, blue: 213))
        #expect(parsed.normalizedPaths == ["backgroundColor", "foregroundColor", "labelColor"])
        #expect(parsed.pass.jsonValue["backgroundColor"] == "rgb(76, 163, 213)")

        let genericProblems = PassValidator.validate(try JSONReader.parse(generic).value)
        for p in genericProblems { print("generic: \(p)") }
        #expect(!genericProblems.contains { $0.isError })
        // Apple's own sample sets dateStyle alone and timeStyle alone: a warning, not an error.
        #expect(
            findings(genericProblems, PassProblemCode.invalidValue, "generic.backFields[2].dateStyle").first?.severity
                == .warning)
        #expect(
            findings(genericProblems, PassProblemCode.invalidValue, "generic.backFields[3].timeStyle").first?.severity
                == .warning)
    }

    @Test(
        "the scrubbed Lufthansa passes lack their identifiers, and one has a web service without a token",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
    func lufthansa() throws {
        let withZone = try #require(
            try Fixtures.pkpassJSON("kitinerary__lufthansa.pkpasses", inner: "lufthansa-with-timezone.pkpass"))
        let plain = try #require(try Fixtures.pkpassJSON("kitinerary__lufthansa.pkpasses", inner: "lufthansa.pkpass"))
        let a = PassValidator.validate(try JSONReader.parse(withZone).value)
        for p in a { print("lufthansa-with-timezone: \(p)") }
        #expect(Set(a.filter(\.isError).map(\.path)) == ["serialNumber", "teamIdentifier"])
        #expect(a.filter(\.isError).allSatisfy { $0.code == PassProblemCode.missingKey })

        let b = PassValidator.validate(try JSONReader.parse(plain).value)
        for p in b { print("lufthansa: \(p)") }
        #expect(Set(b.filter(\.isError).map(\.path)) == ["serialNumber", "teamIdentifier", "authenticationToken"])
        #expect(findings(b, PassProblemCode.invalidValue, "authenticationToken").count == 1)
        // Both are still readable as Pass values.
        #expect(try Pass(json: JSONReader.parse(plain).value).boardingPass?.transitType == .air)
    }
}
