import Foundation
import Testing

/// `verify --help` is where the README sends users for the problem codes (issue 21 item 6).
@Suite("verify --help lists the problem codes")
struct VerifyHelpTests {
    @Test("every code defined in the sources appears in verify --help, on its own line")
    func everyCode() throws {
        let help = try CLI.passmint(["verify", "--help"])
        #expect(help.status == 0)
        let listed = Set(
            help.stdout.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  "), let first = line.split(separator: " ").first, first.contains(".") else {
                    return nil
                }
                return String(first)
            })
        let pattern = try NSRegularExpression(
            pattern: "static let \\w+(?:: ProblemCode)? = \"([a-z]+\\.[a-z0-9-]+)\"")
        var defined: Set<String> = []
        for file in [
            "Sources/PassMint/Verify/VerifyCode.swift", "Sources/PassModel/Validation/PassProblemCode.swift",
            "Sources/PassModel/Validation/PassValidator+Document.swift",
        ] {
            let text = try String(contentsOf: CLI.root.appendingPathComponent(file), encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                defined.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        #expect(defined.count > 50)
        #expect(defined.subtracting(listed).isEmpty, "not in verify --help: \(defined.subtracting(listed).sorted())")
    }
}
