import Foundation
import Testing

/// The shipped templates make passes Apple's validator would sign, and the README's poster variant of the event
/// template carries everything the poster layout needs (the real binary).
@Suite("templates and Apple's validator (end to end)")
struct TemplatesAppleValidatorTests {
    @Test(
        "each shipped template's pass: verify --json finds no error and nothing but the dev certificate warning",
        arguments: ["loyalty", "status", "event", "designer-club.pkpasstemplate"])
    func shippedTemplate(name: String) throws {
        let tmp = try TempDir()
        let out = tmp.path("pass.pkpass")
        let made = try CLI.passmint(
            ["generate", "--template", PackagePaths.template(name), "--out", out]
                + DevIdentity.signingArgs)
        try #require(made.status == 0, "\(made.stderr)")
        let result = try CLI.passmint(["verify", "--json", out])
        #expect(result.status == 0, "\(result.stdout)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let problems = report["problems"] as? [[String: Any]] ?? []
        // No poster-layout warning, no rule of Apple's validator (pass.poster-*, pass.semantic*, image.missing-*,
        // pass.number-format-conflict): only the warning every development-signed pass gets.
        #expect(problems.compactMap { $0["code"] as? String } == ["certificate.not-apple"], "\(problems)")
        #expect(report["valid"] as? Bool == true)
    }

    /// A copy of Templates/event with the README's poster variant applied to its pass.json.
    static func posterVariant(in tmp: TempDir) throws -> String {
        let folder = tmp.path("event-poster")
        try FileManager.default.copyItem(
            atPath: PackagePaths.template("event"), toPath: folder)
        let file = URL(fileURLWithPath: folder + "/pass.json")
        var pass = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        pass["preferredStyleSchemes"] = ["posterEventTicket", "eventTicket"]
        pass["nfc"] = [
            "message": "{{ticketNumber}}",
            // A P-256 SubjectPublicKeyInfo (compressed point), Base64.
            "encryptionPublicKey": "MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgACJSSx/wk8yJFezle8j14BEN5cso4ZvvyfJBLWLKX4Yro=",
            "requiresAuthentication": true,
        ]
        pass["sharingProhibited"] = true
        var semantics = try #require(pass["semantics"] as? [String: Any])
        semantics["artistIDs"] = ["909253"]
        pass["semantics"] = semantics
        try JSONSerialization.data(withJSONObject: pass, options: [.sortedKeys]).write(to: file)
        return folder
    }

    @Test("the README's poster variant of Templates/event: no lint row; with a certificate without NFC, refused")
    func posterVariant() throws {
        let tmp = try TempDir()
        let folder = try Self.posterVariant(in: tmp)
        let lint = try CLI.passmint(["lint", "--json", folder])
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(lint.stdout.contains("\"rows\":[]"), "\(lint.stdout)")

        // The empty lint is the variant's doing: without the NFC the poster rows come back.
        let file = URL(fileURLWithPath: folder + "/pass.json")
        var pass = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        pass["nfc"] = nil
        try JSONSerialization.data(withJSONObject: pass, options: [.sortedKeys]).write(to: file)
        let withoutNFC = try CLI.passmint(["lint", "--json", folder])
        #expect(withoutNFC.status == 1)
        #expect(
            withoutNFC.stdout.contains("\"code\":\"poster.incomplete\"")
                && withoutNFC.stdout.contains("\"path\":\"nfc\""))

        // The development certificate has no NFC, so generate's self-check refuses the variant, naming why.
        let second = try TempDir()
        let again = try Self.posterVariant(in: second)
        let made = try CLI.passmint(
            ["generate", "--template", again, "--out", tmp.path("poster.pkpass")] + DevIdentity.signingArgs)
        #expect(made.status == 1)
        #expect(made.stderr.contains("certificate.nfc-required"), "\(made.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path("poster.pkpass")))
    }
}
