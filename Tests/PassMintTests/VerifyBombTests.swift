import Foundation
import Testing

import PassModel
@testable import PassMint

/// `verify` on hostile archives (`Tests/Tools/make-bombs.py`): every limit holds on the bytes actually inflated,
/// whatever a header claims; each bomb is a report, never a crash. Speed and memory are measured by
/// `Benchmarks/verify-bombs`, not here.
@Suite("verify: decompression bombs and hostile entries")
struct VerifyBombTests {
    /// The bombs, made once per test run.
    static let folder: String = {
        let directory = NSTemporaryDirectory() + "passmint-bombs-" + UUID().uuidString
        let script = PackagePaths.root.appendingPathComponent("Tests/Tools/make-bombs.py").path
        try! CLI.check("/usr/bin/python3", [script, directory])
        return directory
    }()

    static func problems(_ name: String) -> [(report: String, code: ProblemCode, message: String)] {
        PassVerifier.verify(file: "\(folder)/\(name)").flatMap { report in
            report.problems.map { (report.file, $0.code, $0.message) }
        }
    }

    @Test(
        "a text entry bigger than the 1 MiB text limit is refused at the limit, not parsed",
        arguments: [
            // pass.json inflates to 2 GiB while its header claims 1 KB.
            ("inflate-bomb.pkpass", "'pass.json'", "larger than the 1048576-byte limit"),
            // A manifest of a million keys.
            ("manifest-bomb.pkpass", "'manifest.json'", "limit"),
        ])
    func textBomb(file: String, entry: String, words: String) {
        let found = Self.problems(file)
        #expect(
            found.contains {
                $0.code == VerifyCode.archiveUnreadable && $0.message.contains(entry) && $0.message.contains(words)
            }, "\(found)")
    }

    @Test("a bundle of ten inflate bombs: ten reports, each refusing its pass.json")
    func bombBundle() {
        let reports = PassVerifier.verify(file: "\(Self.folder)/bomb-bundle.pkpasses")
        #expect(reports.count == 10)
        for report in reports {
            #expect(!report.valid)
            #expect(report.problems.contains { $0.message.contains("'pass.json'") && $0.message.contains("limit") })
        }
    }

    @Test("5,000 entries are refused before any is inflated")
    func manyEntries() {
        let found = Self.problems("many-entries.pkpass")
        #expect(found.count == 1)
        #expect(found.first?.message.contains("has 5000 entries, more than the 1000") == true)
    }

    @Test("an entry named pass.json<NUL>.png is not read as pass.json; a symbolic link entry is refused")
    func hostileNames() {
        let nul = Self.problems("nul-name.pkpass")
        #expect(nul.contains { $0.code == VerifyCode.archiveBadPath && $0.message.contains("NUL byte") })
        #expect(
            nul.contains { $0.code == VerifyCode.archiveUnreadable && $0.message.contains("pass.json\u{2400}.png") })
        let link = Self.problems("symlink.pkpass")
        #expect(
            link.contains {
                $0.code == VerifyCode.archiveUnreadable && $0.message.contains("symbolic link")
                    && $0.message.contains("'icon.png'")
            })
    }

    @Test("a bundle inside a bundle is not opened")
    func nestedBundle() throws {
        try withTemporaryDirectory { dir in
            let inner = try Data(contentsOf: URL(fileURLWithPath: "\(Self.folder)/nul-name.pkpass"))
            try inner.write(to: URL(fileURLWithPath: "\(dir)/inner.pkpasses"))
            try CLI.check("/usr/bin/zip", ["-q", "-0", "-j", "\(dir)/outer.pkpasses", "\(dir)/inner.pkpasses"])
            let reports = PassVerifier.verify(file: "\(dir)/outer.pkpasses")
            #expect(reports.flatMap(\.problems).contains { $0.message.contains("a bundle inside the bundle") })
        }
    }
}
