import Foundation
import Testing

/// Every ```sh example of README.md runs as written, in order, in a scratch copy of the project, with the built
/// `passmint` first on PATH, so the README cannot drift from the binary. The conventions (markers for blocks that
/// cannot run here, `# exit N`, `# prints: TEXT`) are described on `ReadmeExamples`; the only changes made to the
/// commands (ports, servers in the background) on `ReadmeRun`.
@Suite("README examples (end to end)")
struct ReadmeExamplesTests {
    static let readme = PackagePaths.root.appendingPathComponent("README.md")

    /// The tools the README's examples call besides `passmint` (all from scripts/install-deps).
    static let tools = ["chromium", "convert", "curl", "iconv", "openssl", "zip"]
    static let hasTools = tools.allSatisfy { tool in
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
    }

    @Test(
        "every README example block runs as written; the first that does not fails the test",
        .enabled(
            if: hasTools, "the examples need chromium, convert, curl, iconv, openssl and zip (scripts/install-deps)"),
        .timeLimit(.minutes(15)))
    func everyExampleRuns() throws {
        let markdown = try String(contentsOf: Self.readme, encoding: .utf8)
        let examples = ReadmeExamples(markdown: markdown)
        try #require(examples.problems.isEmpty, "\(examples.problems.joined(separator: "\n"))")
        let tmp = try TempDir()
        let scratch = try Self.scratchCopy(in: tmp)
        let ports = [8080: try freeLoopbackPort(), 8081: try freeLoopbackPort()]
        let options = ReadmeRun.Options(
            scratch: scratch, harness: tmp.url.appendingPathComponent("harness"),
            environment: try Self.environment(scratch: scratch),
            ports: ports, postgresURL: TestPostgres.url == nil ? nil : { try TestPostgres.freshSchema() },
            postgresSkipReason: "needs PostgreSQL: \(TestPostgres.skipReason)")
        let started = Date()
        let outcome = try ReadmeRun(examples: examples, options: options).run()
        let seconds = Date().timeIntervalSince(started)
        let planned = examples.blocks.filter { !outcome.skipped.map(\.line).contains($0.line) }
        print(
            """
            README examples: \(outcome.commandsRun) of \(planned.map(\.commands.count).reduce(0, +)) commands \
            (\(planned.count) blocks) run in \(String(format: "%.0f", seconds)) s; ports rewritten (the only change \
            to the commands): \(ports.sorted { $0.key < $1.key }.map { "\($0.key) → \($0.value)" }.joined(separator: ", ")); \
            a `passmint serve` written in the foreground ran in the background until it answered /healthz.
            \(outcome.skipped.count) blocks not run:
            \(outcome.skipped.map { "  line \($0.line): \($0.reason)" }.joined(separator: "\n"))
            """)
        if let keep = ProcessInfo.processInfo.environment["PASSMINT_TEST_README_KEEP"], !keep.isEmpty {
            // For a look at what each command printed: the scratch folder, the driver and every output.
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: tmp.url, to: URL(fileURLWithPath: keep))
        }
        if let failure = outcome.failure { Issue.record(Comment(rawValue: failure)) }
        #expect(outcome.blocksRun.count > outcome.skipped.count, "most blocks must run")
    }

    @Test("a README whose second block fails stops there, naming the line, the command and its output")
    func stopsAtTheFirstFailure() throws {
        let markdown = """
            # Example

            ## One

            ```sh
            echo first > first.txt
            printf 'points: 618 → 628 (added 10)\\n'   # prints: points: 618 → … (added 10)
            ```

            ```sh
            ls missing-file.txt        # a file no block made
            echo never > never.txt
            ```

            ## Two

            <!-- example: not run: shows a production host -->
            ```sh
            curl https://passes.example.com/healthz
            ```

            ```sh
            echo later > later.txt
            ```
            """
        let tmp = try TempDir()
        let scratch = tmp.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let options = ReadmeRun.Options(
            scratch: scratch, harness: tmp.url.appendingPathComponent("harness"),
            environment: try Self.environment(scratch: scratch), ports: [:], postgresURL: nil,
            postgresSkipReason: "no PostgreSQL")
        let examples = ReadmeExamples(markdown: markdown)
        #expect(examples.problems.isEmpty, "\(examples.problems)")
        #expect(examples.blocks.map(\.line) == [5, 10, 18, 22])
        let outcome = try ReadmeRun(examples: examples, options: options).run()
        let failure = try #require(outcome.failure)
        #expect(failure.contains("README.md line 11 does not work as written: it exited 2, expected 0"), "\(failure)")
        #expect(failure.contains("ls missing-file.txt"), "\(failure)")
        #expect(failure.contains("No such file or directory"), "\(failure)")
        #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("first.txt").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("never.txt").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("later.txt").path))
        #expect(outcome.skipped.map(\.line) == [18])
        #expect(outcome.commandsRun == 3)
    }

    @Test("a promised output that is not printed, and an exit status other than the comment's, fail")
    func promisesAreChecked() throws {
        let markdown = """
            ```sh
            echo 'points: 618 → 10'     # prints: points: 618 → 628
            ```
            """
        let tmp = try TempDir()
        let scratch = tmp.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let options = ReadmeRun.Options(
            scratch: scratch, harness: tmp.url.appendingPathComponent("harness"),
            environment: try Self.environment(scratch: scratch), ports: [:], postgresURL: nil,
            postgresSkipReason: "no PostgreSQL")
        let printed = try ReadmeRun(examples: ReadmeExamples(markdown: markdown), options: options).run()
        #expect(printed.failure?.contains("printed no line containing \"points: 618 → 628\"") == true, "\(printed)")
        let status = """
            ```sh
            true    # exit 1: refused
            ```
            """
        let exited = try ReadmeRun(
            examples: ReadmeExamples(markdown: status),
            options: {
                var o = options; o.harness = tmp.url.appendingPathComponent("harness2"); return o
            }()
        ).run()
        #expect(exited.failure?.contains("exited 0, expected 1") == true, "\(exited)")
    }

    @Test(
        "a serve written in the foreground answers on the free port until its chapter ends; one that cannot start fails"
    )
    func serveConvention() throws {
        let markdown = """
            ## One

            ```sh
            passmint certs dev
            passmint serve --db passmint.db --port 8080
            curl -sf http://127.0.0.1:8080/healthz       # prints: ok
            ```

            ## Two

            ```sh
            curl -s http://127.0.0.1:8080/healthz        # exit 7: nothing listens any more
            passmint serve --db missing-folder/passmint.db --port 8080
            ```
            """
        let tmp = try TempDir()
        let scratch = tmp.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        var environment = try Self.environment(scratch: scratch)
        environment["PASSMINT_ADMIN_TOKEN"] = String(repeating: "a", count: 32)
        let options = ReadmeRun.Options(
            scratch: scratch, harness: tmp.url.appendingPathComponent("harness"), environment: environment,
            ports: [8080: try freeLoopbackPort()], postgresURL: nil, postgresSkipReason: "no PostgreSQL")
        let outcome = try ReadmeRun(examples: ReadmeExamples(markdown: markdown), options: options).run()
        let failure = try #require(outcome.failure)
        #expect(outcome.commandsRun == 5, "\(failure)")
        #expect(
            failure.contains("README.md line 13 does not work as written: it started a server that stopped"),
            "\(failure)")
        #expect(
            failure.contains("| passmint serve: --db: missing-folder/passmint.db: cannot open the store"), "\(failure)")
    }

    @Test("placeholders outside a synopsis, markers without a reason and unknown markers are reported by line")
    func conventionsAreEnforced() {
        let markdown = """
            ```sh
            passmint generate … --out x.pkpass
            ```

            <!-- example: not run -->
            ```sh
            true
            ```

            <!-- example: later -->
            ```sh
            true
            ```

            <!-- example: synopsis -->
            ```sh
            passmint generate … --p12 pass.p12
            ```
            """
        let problems = ReadmeExamples(markdown: markdown).problems
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("README line 2: `…` is a placeholder") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("README line 5: `<!-- example: not run -->` needs a reason") })
        #expect(problems.contains { $0.hasPrefix("README line 10: unknown marker") }, "\(problems)")
    }

    @Test("chapters come from ## headings outside code blocks; other languages' blocks are not examples")
    func chaptersAndOtherBlocks() {
        let markdown = """
            ## Deploying

            ```nginx
            ## not a heading
            ```

            ```json
            {"a": 1}
            ```

            ```sh
            true
            ```
            """
        let blocks = ReadmeExamples(markdown: markdown).blocks
        #expect(blocks.map(\.line) == [11])
        #expect(blocks.first?.chapter == "Deploying")
    }

    @Test("comments: a # inside quotes or a word is code; # exit N and # prints: are read")
    func commentSplitting() {
        #expect(ShellLine.split("curl -s 'http://x/#frag' # fetch") == ("curl -s 'http://x/#frag' ", "fetch"))
        #expect(ShellLine.split("echo ${URL%/postgres}#x") == ("echo ${URL%/postgres}#x", nil))
        #expect(ShellLine.split("echo \"a # b\"") == ("echo \"a # b\"", nil))
        let block = ReadmeExamples(
            markdown: "```sh\npassmint update S --set points=+10 \\\n  --db p.db   # exit 1: refused\n```\n"
        ).blocks[0]
        #expect(block.commands.count == 1)
        #expect(block.commands[0].line == 2 && block.commands[0].expectedStatus == 1)
        #expect(block.commands[0].code == "passmint update S --set points=+10 \\\n  --db p.db   ")
    }

    /// The reader's folder: the project's Templates/, scripts/ and Certificates/README.md (no development
    /// certificates: the README makes them).
    static func scratchCopy(in tmp: TempDir) throws -> URL {
        let scratch = tmp.url.appendingPathComponent("work")
        let fileManager = FileManager.default
        try fileManager.createDirectory(
            at: scratch.appendingPathComponent("Certificates"), withIntermediateDirectories: true)
        for folder in ["Templates", "scripts"] {
            try fileManager.copyItem(
                at: PackagePaths.root.appendingPathComponent(folder), to: scratch.appendingPathComponent(folder))
        }
        try fileManager.copyItem(
            at: PackagePaths.root.appendingPathComponent("Certificates/README.md"),
            to: scratch.appendingPathComponent("Certificates/README.md"))
        return scratch
    }

    /// A fresh shell's environment: `passmint` (the built binary) first on PATH, HOME and TMPDIR inside the
    /// test's folder, the certificate folder and store in the scratch folder, and nothing else of the caller's
    /// (no PASSMINT_DATABASE_URL or admin token leaks in).
    static func environment(scratch: URL) throws -> [String: String] {
        let root = scratch.deletingLastPathComponent()
        let bin = root.appendingPathComponent("bin"), home = root.appendingPathComponent("home")
        let tmp = root.appendingPathComponent("tmp")
        for folder in [bin, home, tmp] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let link = bin.appendingPathComponent("passmint").path
        if !FileManager.default.fileExists(atPath: link) {
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: CLI.binary)
        }
        let inherited = ProcessInfo.processInfo.environment
        var environment = [
            "PATH": bin.path + ":" + (inherited["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"),
            "HOME": home.path, "TMPDIR": tmp.path, "LANG": "C.UTF-8",
            "PASSMINT_CERT_DIR": scratch.appendingPathComponent("Certificates/dev").path,
            "PASSMINT_DB": scratch.appendingPathComponent("passmint.db").path,
            ReadmeRun.markerVariable: UUID().uuidString,
        ]
        for name in ["USER", "LOGNAME"] { environment[name] = inherited[name] }
        return environment
    }
}
