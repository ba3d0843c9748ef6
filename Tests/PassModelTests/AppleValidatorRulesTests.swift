import Foundation
import Testing

@testable import PassModel

/// The catalogue of Apple's validator rules is what the validator does and what the README shows.
@Suite("Apple's validator rules")
struct AppleValidatorRulesTests {
    static func matches(_ apple: AppleValidatorRule, _ rule: ValidatorRule) -> Bool {
        let path =
            apple.path.hasPrefix("*.") ? rule.path.hasSuffix(String(apple.path.dropFirst())) : rule.path == apple.path
        return rule.code == apple.code && path && rule.severity == apple.severity
    }

    /// `image.missing-icon` is verify's (it needs the archive); VerifyAppleRulesTests covers it.
    static let pathRules = AppleValidatorRules.all.filter { $0.code != "image.missing-icon" }

    @Test(
        "each rule of Apple's validator has a row in the rule table with its code, path and severity",
        arguments: pathRules.indices)
    func covered(index: Int) {
        let apple = Self.pathRules[index]
        let rows = ValidatorRule.all.filter { Self.matches(apple, $0) }
        #expect(!rows.isEmpty, "no rule-table row for \(apple.apple) (\(apple.code) at \(apple.path))")
        if apple.agreement == .walletInstalls {
            // Where Apple refuses and Wallet installs, the message says both.
            for row in rows {
                let hit = row.problems(row.failing, files: row.failingFiles).first {
                    $0.code == row.code && $0.path == row.path
                }
                #expect(hit?.message.contains("Apple's validator refuses to sign this") == true, "\(row.name)")
            }
        }
    }

    @Test("the README's table of Apple's validator rules is the catalogue's")
    func readme() throws {
        let readme = try String(contentsOf: PackagePaths.root.appendingPathComponent("README.md"), encoding: .utf8)
            .replacingOccurrences(of: "\r\n", with: "\n")
        let table = AppleValidatorRules.markdownTable()
        #expect(readme.contains(table), "README.md lacks the current table; paste it in:\n\(table)")
    }

    @Test("file rules: a pass without any icon gets no scale warning (verify reports image.missing-icon)")
    func noIcon() {
        #expect(PassValidator.fileProblems(Sample.storeCard, fileNames: ["logo.png", "logo@2x.png"]).isEmpty)
        #expect(
            PassValidator.fileProblems(Sample.storeCard, fileNames: ["icon@3x.png"]).map(\.path) == [
                "icon@2x.png"
            ])
        #expect(PassValidator.fileProblems(.array([]), fileNames: ["icon.png"]).isEmpty)
    }
}
