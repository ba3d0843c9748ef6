/// One option of a command. The parser and the help screen both read this, so nothing undocumented parses.
struct OptionSpec: Sendable {
    let long: String
    let valueName: String?
    let help: String
    var repeatable = false

    /// A `--name VALUE` option.
    static func value(_ long: String, _ valueName: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(long: long, valueName: valueName, help: help, repeatable: repeatable)
    }

    /// A `--name` switch.
    static func flag(_ long: String, _ help: String) -> OptionSpec {
        OptionSpec(long: long, valueName: nil, help: help)
    }
}

/// What a command is called, what it takes and how it is documented.
struct CommandSpec: Sendable {
    let name: String
    let abstract: String
    let usage: String
    var discussion: String = ""
    var options: [OptionSpec] = []
    var positionals: ClosedRange<Int> = 0...0
    var examples: [String] = []
}

/// The command line after parsing against a `CommandSpec`.
struct ParsedArguments: Sendable {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of a required option, or a usage error naming it.
    func required(_ name: String, of spec: CommandSpec) throws(CLIError) -> String {
        guard let v = value(name) else {
            throw .usage("missing --\(name); see `passmint \(spec.name) --help`")
        }
        return v
    }

    /// The `key=value` pairs of a repeatable option such as `--set`, later ones winning.
    func keyValues(_ name: String, of spec: CommandSpec) throws(CLIError) -> [String: String] {
        var pairs: [String: String] = [:]
        for pair in all(name) {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                throw .usage("--\(name) needs key=value, got '\(pair)'")
            }
            pairs[String(pair[..<eq])] = String(pair[pair.index(after: eq)...])
        }
        return pairs
    }

    /// An integer option, or a usage error naming it; 0 is accepted only with `allowZero` (it means "none").
    func integer(_ name: String, of spec: CommandSpec, allowZero: Bool = false) throws(CLIError) -> Int? {
        guard let v = value(name) else { return nil }
        guard let i = Int(v), i > 0 || (allowZero && i == 0) else {
            throw .usage(
                "--\(name) needs a \(allowZero ? "whole number, 0 or more" : "positive whole number"), not '\(v)'")
        }
        return i
    }
}

/// Errors the CLI turns into an exit code and one message on stderr.
enum CLIError: Error, CustomStringConvertible {
    /// Bad command line (exit 2).
    case usage(String)
    /// The input or the pass is invalid (exit 1).
    case invalid(String)
    /// Missing certificate, unreachable database, unwritable output… (exit 3).
    case environment(String)

    var exitCode: Int32 {
        switch self {
        case .usage: return 2
        case .invalid: return 1
        case .environment: return 3
        }
    }

    var description: String {
        switch self {
        case .usage(let m), .invalid(let m), .environment(let m): return m
        }
    }
}

/// A `passmint` command: one file under Commands/, argument handling and printing only.
protocol Command: Sendable {
    static var spec: CommandSpec { get }
    init(_ args: ParsedArguments) throws(CLIError)
    /// Runs the command and returns its exit code (0 success, 1 invalid input); throws for other failures.
    func run() throws(CLIError) -> Int32
}

extension Command {
    /// Parses `args` against `spec`, builds the command and runs it; errors go to stderr as one message and
    /// become the exit code.
    static func execute(_ args: [String]) -> Int32 {
        do {
            let parsed = try ArgumentParser.parse(args, spec: spec)
            return try Self(parsed).run()
        } catch {
            Console.error("passmint \(spec.name): \(error.description)")
            return error.exitCode
        }
    }
}
