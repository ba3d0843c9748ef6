import Foundation
import Testing

@Suite("help and usage")
struct HelpTests {
    @Test("passmint help lists every command and exits 0")
    func overview() throws {
        let result = try CLI.passmint(["help"])
        #expect(result.status == 0)
        for name in ["certs dev", "certs inspect", "generate", "verify", "batch", "serve", "update", "preview", "lint"] {
            #expect(result.stdout.contains(name))
        }
    }

    @Test(
        "every command has --help",
        arguments: [["certs", "dev"], ["certs", "inspect"], ["generate"], ["verify"], ["batch"], ["serve"], ["update"], ["preview"], ["lint"]])
    func commandHelp(words: [String]) throws {
        let result = try CLI.passmint(words + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Usage: passmint \(words.joined(separator: " "))"))
    }

    @Test("an unknown command exits 2 with a suggestion")
    func unknown() throws {
        let result = try CLI.passmint(["generat"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Did you mean 'generate'"))
    }
}
