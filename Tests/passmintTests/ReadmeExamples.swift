import Foundation

/// The ```sh example blocks of a README, in order, with what each command must do.
///
/// Conventions (they are written in the README itself, so a reader sees them too):
/// - `<!-- example: not run: REASON -->` on the line before a block: the block is not run, for REASON.
/// - `<!-- example: synopsis -->`: the block shows a command's shape with `…` placeholders; it is not run. A block
///   with `…` outside its comments must carry this marker (or become a runnable example).
/// - `<!-- example: postgres -->`: the block needs PostgreSQL; it runs with `PASSMINT_TEST_POSTGRES_URL` set to a
///   fresh schema on the test server, and is skipped (with that reason) when no server is given.
/// - A command whose comment starts with `exit N` must exit with N; every other command must exit 0.
/// - A comment starting with `prints: TEXT` (after the command, or alone on the next line) means the command's
///   output (stdout and stderr) has a line containing TEXT, where `…` stands for any characters.
struct ReadmeExamples: Sendable {
    /// One ```sh block.
    struct Block: Sendable {
        enum Kind: Sendable, Equatable {
            case run
            case postgres
            case notRun(reason: String)
            case synopsis
        }
        /// The README line of the opening fence.
        let line: Int
        /// The `## ` chapter the block is in (servers a chapter starts stop at its end).
        let chapter: String
        let kind: Kind
        let commands: [Command]
    }

    /// One command: a logical line (physical lines joined by trailing backslashes).
    struct Command: Sendable {
        /// The README line it starts on.
        let line: Int
        /// As written, comments included (physical lines joined by newlines).
        let text: String
        /// Without comments, as the shell runs it.
        let code: String
        /// From a comment `# exit N`; 0 otherwise.
        let expectedStatus: Int32
        /// From comments `# prints: TEXT`.
        let prints: [String]
    }

    let blocks: [Block]
    /// Conventions broken (a `…` in an unmarked block, a marker without a reason, an unknown marker): each names
    /// its README line.
    let problems: [String]

    init(markdown: String) {
        var blocks: [Block] = []
        var problems: [String] = []
        let lines = markdown.components(separatedBy: "\n")
        var chapter = ""
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("## ") { chapter = String(line.dropFirst(3)) }
            guard line.trimmingCharacters(in: .whitespaces) == "```sh" else {
                if line.hasPrefix("```") {
                    // Another language's block (nginx, json, swift…): nothing in it is a heading or an example.
                    index += 1
                    while index < lines.count, !lines[index].hasPrefix("```") { index += 1 }
                }
                index += 1
                continue
            }
            let fence = index + 1
            var body: [(number: Int, text: String)] = []
            index += 1
            while index < lines.count, !lines[index].hasPrefix("```") {
                body.append((index + 1, lines[index]))
                index += 1
            }
            index += 1
            let marker = Self.marker(before: fence, in: lines)
            var kind = Block.Kind.run
            if let marker {
                switch Self.kind(of: marker) {
                case .success(let parsed): kind = parsed
                case .failure(let problem): problems.append("README line \(fence - 1): \(problem.description)")
                }
            }
            let (commands, blockProblems) = Self.commands(body)
            problems += blockProblems
            if kind == .run || kind == .postgres {
                for command in commands where command.code.contains("…") {
                    problems.append(
                        "README line \(command.line): `…` is a placeholder, so the block at line \(fence) cannot run "
                            + "as written: make it a runnable example or mark it `<!-- example: synopsis -->`")
                }
            }
            blocks.append(Block(line: fence, chapter: chapter, kind: kind, commands: commands))
        }
        self.blocks = blocks
        self.problems = problems
    }

    /// The `<!-- example: … -->` text on the line before the fence (1-based `fence`), if any.
    private static func marker(before fence: Int, in lines: [String]) -> String? {
        guard fence >= 2 else { return nil }
        let previous = lines[fence - 2].trimmingCharacters(in: .whitespaces)
        guard previous.hasPrefix("<!-- example:"), previous.hasSuffix("-->") else { return nil }
        return String(previous.dropFirst("<!-- example:".count).dropLast("-->".count))
            .trimmingCharacters(in: .whitespaces)
    }

    struct MarkerProblem: Error, CustomStringConvertible {
        let description: String
    }

    private static func kind(of marker: String) -> Result<Block.Kind, MarkerProblem> {
        if marker == "synopsis" { return .success(.synopsis) }
        if marker == "postgres" { return .success(.postgres) }
        if marker.hasPrefix("not run") {
            let reason = marker.dropFirst("not run".count).drop { $0 == ":" || $0 == " " }
            guard !reason.isEmpty else {
                return .failure(
                    MarkerProblem(description: "`<!-- example: not run -->` needs a reason after `not run:`"))
            }
            return .success(.notRun(reason: String(reason)))
        }
        return .failure(
            MarkerProblem(
                description:
                    "unknown marker `<!-- example: \(marker) -->`: use `not run: REASON`, `synopsis` or `postgres`"
            ))
    }

    /// Splits a block's lines into commands; comment-only lines are prose, except `# prints:` for the command before.
    private static func commands(_ body: [(number: Int, text: String)]) -> ([Command], [String]) {
        var commands: [Command] = []
        var problems: [String] = []
        var pending: (line: Int, text: [String], code: [String], comments: [String])?
        func finish() {
            guard let current = pending else { return }
            pending = nil
            var status: Int32 = 0
            var prints: [String] = []
            for comment in current.comments {
                if let rest = comment.firstMatch(of: /^exit (\d+)\b/), let value = Int32(rest.1) { status = value }
                if comment.hasPrefix("prints:") {
                    prints.append(String(comment.dropFirst("prints:".count)).trimmingCharacters(in: .whitespaces))
                }
            }
            commands.append(
                Command(
                    line: current.line, text: current.text.joined(separator: "\n"),
                    code: current.code.joined(separator: "\n"), expectedStatus: status, prints: prints))
        }
        for (number, text) in body {
            let (code, comment) = ShellLine.split(text)
            let trimmed = code.trimmingCharacters(in: .whitespaces)
            if pending == nil, trimmed.isEmpty {
                // Prose, or the output a `# prints:` line promises for the command just before.
                if let comment, comment.hasPrefix("prints:") {
                    guard let last = commands.popLast() else {
                        problems.append("README line \(number): `# prints:` with no command before it")
                        continue
                    }
                    let text = String(comment.dropFirst("prints:".count)).trimmingCharacters(in: .whitespaces)
                    commands.append(
                        Command(
                            line: last.line, text: last.text + "\n" + text, code: last.code,
                            expectedStatus: last.expectedStatus, prints: last.prints + [text]))
                }
                continue
            }
            if pending == nil { pending = (number, [], [], []) }
            pending?.text.append(text)
            pending?.code.append(code)
            if let comment { pending?.comments.append(comment) }
            if !trimmed.hasSuffix("\\") { finish() }
        }
        if let pending {
            problems.append("README line \(pending.line): the command ends with `\\` but the block ends there")
            finish()
        }
        return (commands, problems)
    }
}
