import Testing
@testable import passmint

/// Option values are read through their declarations (`args[Self.port]`): the type is the declaration's, a bad
/// value is a usage error naming the option, and a command declares each option once.
@Suite("CLI options read through their declarations")
struct OptionDeclarationTests {
    static let port = Option<Int>.integer(
        "port", "N", "port", in: 0...65535, expected: "a number from 0 to 65535")
    static let jobs = Option<Int>.integer("jobs", "N", "parallel signers")
    static let timeout = Option<Int>.integer("request-timeout", "SECONDS", "deadline", allowZero: true)
    static let out = Option<String>("out", "FILE", "output")
    static let set = RepeatedOption("set", "KEY=VALUE", "a field")
    static let resume = Flag("resume", "resume")
    static let spec = CommandSpec(
        name: "test", abstract: "a test command", usage: "test", options: [port, jobs, timeout, out, set, resume])

    func parse(_ arguments: [String]) throws -> ParsedArguments {
        try ArgumentParser.parse(arguments, spec: Self.spec)
    }

    func usage(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as CLIError {
            guard case .usage(let message) = error else { return "not a usage error: \(error)" }
            return message
        } catch {
            return "not a CLIError: \(error)"
        }
    }

    @Test("each kind reads as its type; absent options read as nil, false or empty")
    func typedReads() throws {
        let args = try parse([
            "--port", "0", "--jobs=4", "--out", "a.pkpass", "--set", "a=1", "--set", "b=2=3", "--resume",
        ])
        #expect(try args[Self.port] == 0)
        #expect(try args[Self.jobs] == 4)
        #expect(args[Self.out] == "a.pkpass")
        #expect(args[Self.set] == ["a=1", "b=2=3"])
        #expect(try args.keyValues(Self.set) == ["a": "1", "b": "2=3"])
        #expect(args[Self.resume])
        let empty = try parse([])
        #expect(try empty[Self.port] == nil && empty[Self.out] == nil && empty[Self.set].isEmpty && !empty[Self.resume])
        #expect(!empty.given(Self.jobs) && args.given(Self.jobs) && args.given(Self.resume))
        #expect(args.declares(Self.port) && !args.declares(Option<String>("db", "FILE", "not declared")))
    }

    @Test(
        "a value that is not one of the option's type is a usage error naming the option and what it needs",
        arguments: [
            (["--port", "65536"], "--port needs a number from 0 to 65535, not '65536'"),
            (["--port", "eighty"], "--port needs a number from 0 to 65535, not 'eighty'"),
            (["--jobs", "0"], "--jobs needs a positive whole number, not '0'"),
            (["--request-timeout", "-1"], "--request-timeout needs a whole number, 0 or more, not '-1'"),
        ])
    func badValues(arguments: [String], message: String) throws {
        let args = try parse(arguments)
        let said = usage {
            _ = try args[Self.port]
            _ = try args[Self.jobs]
            _ = try args[Self.timeout]
        }
        #expect(said == message)
        #expect(try parse(["--request-timeout", "0"])[Self.timeout] == 0)
    }

    @Test("a required option that is missing, and a pair without '=', are usage errors naming the option")
    func requiredAndPairs() throws {
        let empty = try parse([])
        #expect(
            usage { _ = try empty.required(Self.out, of: Self.spec) } == "missing --out; see `passmint test --help`")
        let pair = try parse(["--set", "novalue"])
        #expect(usage { _ = try pair.keyValues(Self.set) } == "--set needs key=value, got 'novalue'")
    }

    @Test("every command declares each option once, so each declaration reads one option of its own")
    func commandsDeclareOnce() {
        for command in Commands.all {
            let names = command.spec.options.map(\.long)
            #expect(Set(names).count == names.count, "\(command.spec.name): \(names)")
        }
    }
}
