/// One option of a command. The parser and the help screen both read this, so nothing undocumented parses.
struct OptionSpec: Sendable, OptionDeclaration {
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

    var spec: OptionSpec { self }
}

/// Something a command declares as an option: the spec the parser and the help screen read.
protocol OptionDeclaration: Sendable {
    var spec: OptionSpec { get }
}

/// A declared `--name VALUE` option whose value reads as `Value` (`String`, or a number checked by `parse`).
struct Option<Value: Sendable>: OptionDeclaration {
    let spec: OptionSpec
    /// The value of a text, nil when the text is not one.
    let parse: @Sendable (String) -> Value?
    /// What the option needs, for the usage error: "a positive whole number".
    let expected: String
}

extension Option where Value == String {
    /// A `--name VALUE` option read as its text.
    init(_ long: String, _ valueName: String, _ help: String) {
        self.init(spec: .value(long, valueName, help), parse: { $0 }, expected: "a value")
    }
}

extension Option where Value == Int {
    /// A `--name N` option read as a positive whole number; with `allowZero`, 0 too (it means "none").
    static func integer(_ long: String, _ valueName: String, _ help: String, allowZero: Bool = false) -> Self {
        Option(
            spec: .value(long, valueName, help),
            parse: { text in Int(text).flatMap { $0 > 0 || (allowZero && $0 == 0) ? $0 : nil } },
            expected: allowZero ? "a whole number, 0 or more" : "a positive whole number")
    }

    /// A `--name N` option read as a whole number in `range`; `expected` says what it needs.
    static func integer(
        _ long: String, _ valueName: String, _ help: String, in range: ClosedRange<Int>, expected: String
    ) -> Self {
        Option(
            spec: .value(long, valueName, help), parse: { Int($0).flatMap { range.contains($0) ? $0 : nil } },
            expected: expected)
    }
}

/// A declared `--name VALUE` option that may be given more than once.
struct RepeatedOption: OptionDeclaration {
    let spec: OptionSpec

    init(_ long: String, _ valueName: String, _ help: String) {
        spec = .value(long, valueName, help, repeatable: true)
    }
}

/// A declared `--name` switch.
struct Flag: OptionDeclaration {
    let spec: OptionSpec

    init(_ long: String, _ help: String) {
        spec = .flag(long, help)
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

    /// - Parameter options: the command's declared options, in the order help lists them; only these parse, and
    ///   a command reads a value only through its declaration (`args[Self.port]`).
    init(
        name: String, abstract: String, usage: String, discussion: String = "",
        options: [any OptionDeclaration] = [], positionals: ClosedRange<Int> = 0...0, examples: [String] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.discussion = discussion
        self.options = options.map(\.spec)
        self.positionals = positionals
        self.examples = examples
    }
}

/// The command line after parsing against a `CommandSpec`. Values are read through the options' declarations
/// (`Option`, `Flag`, `RepeatedOption`), never by name, so an option that is not declared cannot be read and a
/// misspelt one does not compile.
struct ParsedArguments: Sendable {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    /// The long names of the options the command declared (reading another is a programming error).
    var declared: Set<String> = []

    private func raw(_ spec: OptionSpec) -> [String] {
        assert(declared.isEmpty || declared.contains(spec.long), "--\(spec.long) is not declared by this command")
        return values[spec.long] ?? []
    }

    /// The text given to `option`, nil when it was not given.
    subscript(option: Option<String>) -> String? { raw(option.spec).last }

    /// The value given to `option` read as its type, nil when it was not given; a usage error naming the option
    /// when the text is not a value of that type.
    subscript<Value>(option: Option<Value>) -> Value? {
        get throws(CLIError) {
            guard let text = raw(option.spec).last else { return nil }
            guard let value = option.parse(text) else {
                throw .usage("--\(option.spec.long) needs \(option.expected), not '\(text)'")
            }
            return value
        }
    }

    /// Every value given to a repeatable option, in order.
    subscript(option: RepeatedOption) -> [String] { raw(option.spec) }

    /// Whether the command declares the option (shared option groups read only what their command declares).
    func declares(_ option: any OptionDeclaration) -> Bool { declared.contains(option.spec.long) }

    /// Whether the option was given at all (whatever its value).
    func given(_ option: any OptionDeclaration) -> Bool {
        !raw(option.spec).isEmpty || flags.contains(option.spec.long)
    }

    /// Whether the switch was given.
    subscript(flag: Flag) -> Bool {
        assert(declared.isEmpty || declared.contains(flag.spec.long), "--\(flag.spec.long) is not declared")
        return flags.contains(flag.spec.long)
    }

    /// The value of a required option, or a usage error naming it.
    func required(_ option: Option<String>, of spec: CommandSpec) throws(CLIError) -> String {
        guard let v = self[option] else {
            throw .usage("missing --\(option.spec.long); see `passmint \(spec.name) --help`")
        }
        return v
    }

    /// The `key=value` pairs of a repeatable option such as `--set`, later ones winning.
    func keyValues(_ option: RepeatedOption) throws(CLIError) -> [String: String] {
        var pairs: [String: String] = [:]
        for pair in self[option] {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                throw .usage("--\(option.spec.long) needs key=value, got '\(pair)'")
            }
            pairs[String(pair[..<eq])] = String(pair[pair.index(after: eq)...])
        }
        return pairs
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
