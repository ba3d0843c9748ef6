import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the example blocks of a README in order, as one reader in one shell would: one bash process, one scratch
/// folder, variables and files carried from block to block. It stops at the first command that does not work as
/// written (wrong exit status, a promised output missing, a server that does not come up, no end within the
/// time limit) and says which README line, which command and what it printed.
///
/// The only changes made to the README's commands: each README port (8080, 8081) becomes a free loopback port
/// everywhere in the blocks, and a `passmint serve` written in the foreground runs in the background, as in a
/// second terminal, until the test sees it answer `/healthz`. A `passmint serve` first stops the servers earlier
/// blocks started on its port (as a reader stops the one in the other terminal); all stop at the end of their
/// `## ` chapter.
struct ReadmeRun {
    struct Options {
        /// The reader's folder: Templates/, scripts/, Certificates/, and everything the examples make.
        var scratch: URL
        /// The driver script, the commands and their output (outside the scratch folder).
        var harness: URL
        /// The whole environment of the shell (nothing else is inherited).
        var environment: [String: String]
        /// README port → the free port used instead.
        var ports: [Int: Int]
        /// A fresh PostgreSQL schema's URL for each `postgres` block; nil skips those blocks.
        var postgresURL: (() throws -> String)?
        /// Why `postgres` blocks are skipped when `postgresURL` is nil.
        var postgresSkipReason: String
        /// A command still running after this many seconds fails.
        var commandTimeout: TimeInterval = 180
    }

    /// A block that did not run, and why.
    struct Skipped: Sendable {
        let line: Int
        let reason: String
    }

    struct Outcome {
        /// Why the run stopped early (README line, command, exit status, output), nil when every command worked.
        var failure: String?
        var commandsRun = 0
        var blocksRun: [Int] = []
        var skipped: [Skipped] = []
    }

    let examples: ReadmeExamples
    let options: Options

    func run() throws -> Outcome {
        var outcome = Outcome()
        let fileManager = FileManager.default
        let commandsDir = options.harness.appendingPathComponent("cmds")
        let logsDir = options.harness.appendingPathComponent("logs")
        try fileManager.createDirectory(at: commandsDir, withIntermediateDirectories: true)
        try fileManager.createDirectory(at: logsDir, withIntermediateDirectories: true)
        let results = options.harness.appendingPathComponent("results")
        _ = fileManager.createFile(atPath: results.path, contents: nil)

        var script = Self.prelude(results: results.path)
        var byLine: [Int: (command: ReadmeExamples.Command, log: String)] = [:]
        var chapter: String?
        var number = 0
        for block in examples.blocks {
            switch block.kind {
            case .notRun(let reason):
                outcome.skipped.append(Skipped(line: block.line, reason: "not run: \(reason)"))
                continue
            case .synopsis:
                outcome.skipped.append(Skipped(line: block.line, reason: "synopsis (placeholders, not a command)"))
                continue
            case .postgres where options.postgresURL == nil:
                outcome.skipped.append(Skipped(line: block.line, reason: options.postgresSkipReason))
                continue
            case .postgres, .run: break
            }
            if let chapter, chapter != block.chapter { script += "__pm_stop_all\n" }
            chapter = block.chapter
            outcome.blocksRun.append(block.line)
            script += "\n# README line \(block.line)\n__pm_block=()\n"
            if block.kind == .postgres, let fresh = options.postgresURL {
                script += "export PASSMINT_TEST_POSTGRES_URL=\(Self.quoted(try fresh()))\n"
            }
            for command in block.commands {
                number += 1
                let name = String(format: "%04d", number)
                let code = Self.rewritePorts(command.code, options.ports)
                let serve = code.contains("passmint serve")
                let inForeground = serve && !code.replacingOccurrences(of: "&&", with: "").contains("&")
                let file = commandsDir.appendingPathComponent(name + ".sh")
                try Data((code + (inForeground ? " &" : "") + "\n").utf8).write(to: file)
                let log = logsDir.appendingPathComponent(name + ".log").path
                byLine[command.line] = (command, log)
                let line = command.line
                script += "printf 'start %d\\n' \(line) >&3\n"
                var port = 0
                if serve {
                    port = Self.servePort(code) ?? options.ports[8080] ?? 8080
                    script += "__pm_stop_port \(port)\n"
                }
                script += "{ eval \"$(< \(Self.quoted(file.path)))\"; } > \(Self.quoted(log)) 2>&1 < /dev/null\n"
                script += "__pm_status=$?\n"
                if serve {
                    script += "__pm_serves+=(\"\(port) $! \(line)\"); __pm_block+=(\"\(port) $! \(line)\")\n"
                }
                script += "printf 'end %d %d\\n' \(line) \"$__pm_status\" >&3\n"
                script += "[ \"$__pm_status\" = \(command.expectedStatus) ] || __pm_fail \(line) status\n"
                for (index, text) in command.prints.enumerated() {
                    let pattern = Self.pattern(Self.rewritePorts(text, options.ports))
                    script += "LC_ALL=C grep -qE -- \(Self.quoted(pattern)) \(Self.quoted(log)) "
                    script += "|| __pm_fail \(line) prints \(index)\n"
                }
                if inForeground { script += "__pm_up \(port) $! || __pm_fail \(line) serve\n" }
            }
            script += "__pm_block_up\n"
        }
        script += "__pm_stop_all\nprintf 'done\\n' >&3\n"
        let driver = options.harness.appendingPathComponent("driver.sh")
        try Data(script.utf8).write(to: driver)

        let status = try drive(driver: driver.path, results: results.path)
        let lines = (try? String(contentsOf: results, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        outcome.commandsRun = lines.filter { $0.hasPrefix("end ") }.count
        outcome.failure = failure(
            lines: lines, status: status, byLine: byLine,
            driverLog: options.harness.appendingPathComponent("driver.log").path)
        return outcome
    }

    /// How the driver ended: normally, or killed after a command passed the time limit.
    private enum DriverEnd {
        case exited
        case timedOut(line: Int)
    }

    /// Runs the driver, killing it when one command runs past the time limit; stops every process it left.
    private func drive(driver: String, results: String) throws -> DriverEnd {
        let marker = options.environment[ReadmeRun.markerVariable] ?? ""
        defer { ReadmeRun.stopProcesses(marked: marker) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [driver]
        process.environment = options.environment
        process.currentDirectoryURL = options.scratch
        let logPath = options.harness.appendingPathComponent("driver.log").path
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var lastLine = ""
        var since = Date()
        while process.isRunning {
            usleep(100_000)
            let text = (try? String(contentsOfFile: results, encoding: .utf8)) ?? ""
            let current = text.split(separator: "\n").last.map(String.init) ?? ""
            if current != lastLine {
                lastLine = current
                since = Date()
            } else if current.hasPrefix("start "), Date().timeIntervalSince(since) > options.commandTimeout {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return .timedOut(line: Int(current.dropFirst("start ".count)) ?? 0)
            }
        }
        try? log?.close()
        return .exited
    }

    /// The message for the command that stopped the run, nil when the run reached its end.
    private func failure(
        lines: [String], status: DriverEnd, byLine: [Int: (command: ReadmeExamples.Command, log: String)],
        driverLog: String
    ) -> String? {
        if case .timedOut(let line) = status, let entry = byLine[line] {
            return Self.describe(
                entry.command, problem: "did not finish within \(Int(options.commandTimeout)) s", log: entry.log)
        }
        if lines.last == "done" { return nil }
        guard let fail = lines.last(where: { $0.hasPrefix("fail ") }) else {
            let driverOutput = (try? String(contentsOfFile: driverLog, encoding: .utf8)) ?? ""
            return "the README run stopped without a result after \(lines.last ?? "nothing"):\n\(driverOutput)"
        }
        let parts = fail.split(separator: " ").map(String.init)
        guard parts.count >= 3, let line = Int(parts[1]), let entry = byLine[line] else { return fail }
        let command = entry.command
        let problem: String
        switch parts[2] {
        case "status":
            let ended = lines.last { $0.hasPrefix("end \(line) ") }
            let got = ended.map { String($0.split(separator: " ")[2]) } ?? "?"
            problem =
                "exited \(got), expected \(command.expectedStatus)"
                + (command.expectedStatus == 0 ? "" : " (its comment `# exit \(command.expectedStatus)`)")
        case "prints":
            let index = parts.count > 3 ? Int(parts[3]) ?? 0 : 0
            let text = index < command.prints.count ? command.prints[index] : "?"
            problem = "exited \(command.expectedStatus) but printed no line containing \"\(text)\" (`…`: anything)"
        case "serve":
            problem = "started a server that stopped or did not answer /healthz on its port within 60 s"
        default:
            problem = fail
        }
        return Self.describe(command, problem: problem, log: entry.log)
    }

    private static func describe(_ command: ReadmeExamples.Command, problem: String, log: String) -> String {
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let outputLines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let tail = outputLines.suffix(60).map { $0.count > 400 ? $0.prefix(400) + "…" : $0 }
        let shown = tail.map { "    | " + $0 }.joined(separator: "\n")
        let cut = outputLines.count > 60 ? " (last 60 of \(outputLines.count) lines)" : ""
        return """
            README.md line \(command.line) does not work as written: it \(problem).
              \(command.text.replacingOccurrences(of: "\n", with: "\n  "))
            its output\(cut):
            \(shown.isEmpty ? "    (none)" : shown)
            """
    }

    /// The environment variable that marks every process of a run, so none outlives it.
    static let markerVariable = "PASSMINT_README_RUN"

    /// Stops (TERM, then KILL) every process whose environment carries `markerVariable=marker`: the servers and
    /// any command a killed driver left behind. Only this run's processes carry the marker.
    static func stopProcesses(marked marker: String) {
        guard !marker.isEmpty else { return }
        let needle = Data("\(markerVariable)=\(marker)\0".utf8)
        func marked() -> [pid_t] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.compactMap { entry -> pid_t? in
                guard let pid = pid_t(entry), pid != getpid(),
                    let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                    environ.range(of: needle) != nil
                else { return nil }
                return pid
            }
        }
        let first = marked()
        for pid in first { kill(pid, SIGTERM) }
        if !first.isEmpty { _ = waitUntil(timeout: 10) { marked().isEmpty } }
        for pid in marked() { kill(pid, SIGKILL) }
    }

    /// The port of `--port N` in a `passmint serve` command.
    static func servePort(_ code: String) -> Int? {
        guard let match = code.firstMatch(of: /--port[ =]([0-9]+)/) else { return nil }
        return Int(match.1)
    }

    /// Replaces each README port (as a whole number, not part of a longer one) by its free port.
    static func rewritePorts(_ text: String, _ ports: [Int: Int]) -> String {
        var result = text
        for (from, to) in ports {
            let regex = try! NSRegularExpression(pattern: "(?<![0-9])\(from)(?![0-9])")
            result = regex.stringByReplacingMatches(
                in: result, range: NSRange(result.startIndex..., in: result), withTemplate: String(to))
        }
        return result
    }

    /// A `grep -E` pattern for a `prints:` text: literal, with `…` matching any characters.
    static func pattern(_ text: String) -> String {
        text.components(separatedBy: "…").map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: ".*")
    }

    /// `text` in single quotes for bash.
    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// The driver's helpers: servers it tracks (port, pid, README line), stopping them, waiting for them.
    private static func prelude(results: String) -> String {
        """
        # Generated by ReadmeRun (Tests/passmintTests): the README's sh blocks, one command at a time.
        exec 3>>\(quoted(results))
        __pm_serves=()
        __pm_block=()
        __pm_alive() { local state; state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1); [ -n "$state" ] && [ "$state" != Z ]; }
        __pm_stop() {
          kill -TERM "$1" 2>/dev/null
          local i=0
          while __pm_alive "$1" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
          kill -KILL "$1" 2>/dev/null
          wait "$1" 2>/dev/null
        }
        __pm_stop_port() {
          local keep=() entry port pid line
          for entry in "${__pm_serves[@]}"; do
            read -r port pid line <<<"$entry"
            if [ "$port" = "$1" ]; then __pm_stop "$pid"; else keep+=("$entry"); fi
          done
          __pm_serves=("${keep[@]}")
        }
        __pm_stop_all() {
          local entry port pid line
          for entry in "${__pm_serves[@]}"; do read -r port pid line <<<"$entry"; __pm_stop "$pid"; done
          __pm_serves=()
        }
        __pm_up() {
          local i=0
          while [ $i -lt 600 ]; do
            curl -sf -o /dev/null --max-time 2 "http://127.0.0.1:$1/healthz" && return 0
            __pm_alive "$2" || return 1
            sleep 0.1
            i=$((i + 1))
          done
          return 1
        }
        __pm_block_up() {
          local entry port pid line
          for entry in "${__pm_block[@]}"; do
            read -r port pid line <<<"$entry"
            __pm_up "$port" "$pid" || __pm_fail "$line" serve
          done
        }
        __pm_fail() { printf 'fail %s\\n' "$*" >&3; exit 1; }
        trap __pm_stop_all EXIT

        """
    }
}
