import Foundation
import PassMint
import PassModel
import PassSigning

/// `passmint verify`: everything that can be checked offline about .pkpass / .pkpasses files.
struct VerifyCommand: Command {
    static let json = Flag(
        "json",
        "print one JSON object per pass per line: {file, valid, style, passTypeIdentifier, "
            + "serialNumber, problems: [{severity, code, message, path}]}")

    static let spec = CommandSpec(
        name: "verify",
        abstract: "check .pkpass / .pkpasses files offline and say exactly why Wallet would refuse them",
        usage: "verify FILE… [--json]",
        discussion: """
            Checks the zip, manifest hashes, the signature over manifest.json, the certificates (Pass Type ID
            signer, Apple WWDR intermediate pinned by fingerprint, expiry now and at signing time, pass type ID,
            team, NFC), pass.json rules, images and localization. A folder argument verifies every .pkpass and
            .pkpasses inside it, recursively. Each pass in a bundle is reported on its own.
            Exit status: 0 when every pass is valid (warnings allowed), 1 otherwise.
            Every rule of Apple's own validator (apple/pass-builder) is a rule here too (A below); where Apple's
            validator refuses to sign a pass that Wallet still installs, PassMint warns and the message says both.
            The README's "Apple's validator" table maps each of its rules to a code and path.

            Problem codes (E error, W warning, E/W depending on the case):

            """ + ProblemCatalog.text(),
        options: [
            json,
            TrustArguments.option,
        ],
        positionals: 1...Int.max,
        examples: [
            "passmint verify loyalty.pkpass",
            "passmint verify --json passes/ > report.jsonl",
        ]
    )

    let inputs: [String]
    let json: Bool
    let trust: TrustRoots

    init(_ args: ParsedArguments) throws(CLIError) {
        inputs = args.positionals
        json = args[Self.json]
        trust = try TrustArguments.load(args)
    }

    func run() throws(CLIError) -> Int32 {
        var allValid = true
        var counts = (valid: 0, invalid: 0)
        for input in inputs {
            var isDirectory: ObjCBool = false
            var files = [input]
            if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
                files = PassVerifier.passFiles(in: input)
                if files.isEmpty {
                    Console.error("verify: \(input) holds no .pkpass or .pkpasses file")
                    allValid = false
                    continue
                }
            }
            for file in files {
                for report in PassVerifier.verify(file: file, trust: trust) {
                    if report.valid { counts.valid += 1 } else { counts.invalid += 1; allValid = false }
                    if json {
                        print(JSONWriter.string(report.jsonValue, pretty: false))
                    } else {
                        print(Self.text(report), terminator: "")
                    }
                }
            }
        }
        if !json, counts.valid + counts.invalid > 1 {
            print("\(counts.valid + counts.invalid) passes checked: \(counts.valid) valid, \(counts.invalid) invalid")
        }
        return allValid ? 0 : 1
    }

    /// The human form: a headline per pass, then its errors, warnings and notes, each with its path or entry.
    static func text(_ report: VerificationReport) -> String {
        var facts = [report.style, report.passTypeIdentifier, report.serialNumber.map { "serial \($0)" }]
            .compactMap { $0 }
        if report.isDevelopmentPass { facts.append("development pass") }
        var out =
            "\(report.file): \(report.valid ? "valid" : "INVALID")"
            + (facts.isEmpty ? "" : " (\(facts.joined(separator: ", ")))") + "\n"
        for (title, problems) in [("error", report.errors), ("warning", report.warnings)] where !problems.isEmpty {
            out += "  \(problems.count) \(title)\(problems.count == 1 ? "" : "s"):\n"
            for problem in problems {
                out +=
                    "    \(problem.code)" + (problem.path.isEmpty ? "" : " at \(problem.path)")
                    + ": \(problem.message)\n"
            }
        }
        for note in report.notes { out += "  note: \(note)\n" }
        return out
    }
}
