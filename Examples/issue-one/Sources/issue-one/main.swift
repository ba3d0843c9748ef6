import Foundation
import PassMint

// Issues one loyalty pass from the shipped template with a development identity, writes it and verifies it.
// Run from the PassMint root: swift run --package-path Examples/issue-one issue-one [OUT.pkpass]
let out = CommandLine.arguments.dropFirst().first ?? "issue-one.pkpass"
do {
    let identity = IdentityOptions(defaultDirectory: "Certificates/dev")
    let issuer = try PassFactory.issuer(templateDirectory: "Templates/loyalty", identity: identity)
    let pass = try issuer.issue(
        IssueRequest(
            record: ["memberName": "Ada Lovelace", "points": "1200", "tier": "Gold"], serialNumber: "ADA-0001"))
    try PassOutput.write(pass.archiveParts, to: out)
    let report = PassVerifier.verify(archive: pass.archive, name: out)
    print(
        "wrote \(out): serial \(pass.serialNumber), \(pass.archiveParts.count) bytes, "
            + (report.valid ? "valid" : "INVALID: \(report.errors.map(\.message))"))
    exit(report.valid ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("issue-one: \(error)\n".utf8))
    exit(error.isInvalidInput ? 1 : 3)
}
