import Foundation
import Testing

@testable import PassModel

@Suite("PassValidator on pass.json bytes")
struct DocumentValidationTests {
    @Test("text that is not JSON is one pass.json-invalid error naming line and column")
    func invalid() {
        let problems = PassValidator.validate(passJSON: Array("{\n  \"a\": tru\n}".utf8))
        #expect(problems.count == 1)
        #expect(problems.first?.code == PassProblemCode.jsonInvalid)
        #expect(problems.first?.path == "pass.json")
        #expect(problems.first?.message.contains("pass.json:2:8") == true)
    }

    @Test("trailing commas and comments are pass.json-lenient errors; the rules still run on the value")
    func lenient() throws {
        var text = JSONWriter.string(Sample.storeCard)
        text = text.replacingOccurrences(of: "\"Jane\"", with: "\"Jane\", // the member\n")
        let problems = PassValidator.validate(passJSON: Array(text.utf8))
        let lenient = problems.filter { $0.code == PassProblemCode.jsonLenient }
        #expect(Set(lenient.map(\.path)) == ["storeCard.secondaryFields[0]"])
        #expect(lenient.count == 2)
        #expect(lenient.allSatisfy { $0.severity == .error && $0.message.contains("line ") })
        #expect(lenient.contains { $0.message.contains("remove the comment") })
        #expect(problems.count == lenient.count)
        // A strict document has no leniency problems.
        #expect(PassValidator.validate(passJSON: JSONWriter.serialize(Sample.storeCard)).isEmpty)
    }

    @Test(
        "Apple's boarding pass sample is only wrong in its trailing comma",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures))
    func appleBoardingPass() throws {
        let bytes = try #require(Fixtures.templatePassJSONs().first(where: { $0.name == "apple-BoardingPass" })?.bytes)
        let problems = PassValidator.validate(passJSON: bytes)
        for p in problems { print("apple-BoardingPass: \(p)") }
        #expect(problems.map(\.code) == [PassProblemCode.jsonLenient])
        #expect(problems.first?.path == "boardingPass.auxiliaryFields[3]")
    }

    @Test("Problem.jsonValue follows the verify --json contract")
    func problemJSON() {
        let p = Problem(.error, PassProblemCode.missingKey, "m", path: "serialNumber")
        #expect(
            p.jsonValue == ["severity": "error", "code": "pass.missing-key", "message": "m", "path": "serialNumber"])
    }
}
