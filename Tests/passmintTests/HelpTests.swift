import Foundation
import Testing

@Suite("help and usage")
struct HelpTests {
    @Test("passmint help lists every command and exits 0")
    func overview() throws {
        let result = try CLI.passmint(["help"])
        #expect(result.status == 0)
        for name in ["certs dev", "certs inspect", "generate", "verify", "batch", "serve", "update", "preview", "lint"]
        {
            #expect(result.stdout.contains(name))
        }
    }

    @Test(
        "every command has --help",
        arguments: [
            ["certs", "dev"], ["certs", "inspect"], ["generate"], ["verify"], ["batch"], ["serve"], ["update"],
            ["preview"], ["lint"],
        ])
    func commandHelp(words: [String]) throws {
        let result = try CLI.passmint(words + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Usage: passmint \(words.joined(separator: " "))"))
    }

    /// The commands `passmint help` lists, read from its output.
    static func listedCommands() throws -> [[String]] {
        let text = try CLI.passmint(["help"]).stdout
        guard let start = text.range(of: "Commands:\n") else { return [] }
        return text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.isEmpty }
            .map { line in
                // "  certs dev       make …": the command words end at the first run of two spaces.
                let trimmed = line.drop { $0 == " " }
                let words = trimmed.components(separatedBy: "  ").first ?? ""
                return words.split(separator: " ").map(String.init)
            }
    }

    static let snapshots = CLI.root.appendingPathComponent("Tests/passmintTests/HelpSnapshots")

    @Test("every --help screen matches its snapshot (PASSMINT_UPDATE_SNAPSHOTS=1 rewrites them)")
    func helpSnapshots() throws {
        let commands = try Self.listedCommands()
        #expect(commands.count >= 7, "\(commands)")
        let update = ProcessInfo.processInfo.environment["PASSMINT_UPDATE_SNAPSHOTS"] == "1"
        var expected = Set<String>()
        for words in [["help"]] + commands {
            let name = words.joined(separator: "-") + ".txt"
            expected.insert(name)
            let result = try CLI.passmint(words == ["help"] ? words : words + ["--help"])
            #expect(result.status == 0)
            let file = Self.snapshots.appendingPathComponent(name)
            if update {
                try FileManager.default.createDirectory(at: Self.snapshots, withIntermediateDirectories: true)
                try Data(result.stdout.utf8).write(to: file)
                continue
            }
            let snapshot = try? String(contentsOf: file, encoding: .utf8)
            let shown = words.joined(separator: " ")
            #expect(
                snapshot == result.stdout,
                "\(name) differs from `passmint \(shown) --help`; rerun with PASSMINT_UPDATE_SNAPSHOTS=1 after checking"
            )
        }
        let stored = Set((try? FileManager.default.contentsOfDirectory(atPath: Self.snapshots.path)) ?? [])
        #expect(stored == expected, "snapshots without a command, or commands without a snapshot")
    }

    @Test("an unknown command exits 2 with a suggestion")
    func unknown() throws {
        let result = try CLI.passmint(["generat"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Did you mean 'generate'"))
    }
}
