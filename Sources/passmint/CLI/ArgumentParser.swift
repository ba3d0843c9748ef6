/// Parses `--name value`, `--name=value` and `--flag` against a `CommandSpec`.
enum ArgumentParser {
    static func parse(_ args: [String], spec: CommandSpec) throws(CLIError) -> ParsedArguments {
        var parsed = ParsedArguments()
        parsed.declared = Set(spec.options.map(\.long))
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositionals || !arg.hasPrefix("--") || arg == "-" {
                parsed.positionals.append(arg)
                continue
            }
            if arg == "--" { onlyPositionals = true; continue }
            var name = String(arg.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let option = spec.options.first(where: { $0.long == name }) else {
                throw .usage(unknownOption(name, spec: spec))
            }
            if option.valueName == nil {
                if inline != nil { throw .usage("--\(name) takes no value") }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard i < args.count else {
                    throw .usage("--\(name) needs a value (\(option.valueName!))")
                }
                value = args[i]
                i += 1
            }
            if !option.repeatable, parsed.values[name] != nil {
                throw .usage("--\(name) given twice; give it once")
            }
            parsed.values[name, default: []].append(value)
        }
        guard spec.positionals.contains(parsed.positionals.count) else {
            let expected =
                spec.positionals.lowerBound == spec.positionals.upperBound
                ? "\(spec.positionals.lowerBound)"
                : spec.positionals.upperBound == Int.max
                    ? "at least \(spec.positionals.lowerBound)"
                    : "\(spec.positionals.lowerBound) to \(spec.positionals.upperBound)"
            throw .usage(
                "expected \(expected) argument(s), got \(parsed.positionals.count); usage: passmint \(spec.usage)"
            )
        }
        return parsed
    }

    /// "Unknown option '--x'. Did you mean '--y'?" by edit distance.
    static func unknownOption(_ name: String, spec: CommandSpec) -> String {
        let best = spec.options.map { ($0.long, editDistance($0.long, name)) }.min { $0.1 < $1.1 }
        var message = "unknown option '--\(name)'."
        if let best, best.1 <= max(2, name.count / 3) { message += " Did you mean '--\(best.0)'?" }
        return message + " See `passmint \(spec.name) --help`."
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
