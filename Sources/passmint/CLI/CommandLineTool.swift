import Foundation

/// Dispatches `passmint <command> …` to its command, prints errors to stderr and maps them to exit codes.
enum CommandLineTool {
    static func main(_ args: [String]) -> Int32 {
        guard let first = args.first, first != "--help", first != "-h" else {
            print(HelpRenderer.overview(Commands.all), terminator: "")
            return args.isEmpty ? 2 : 0
        }
        if first == "help" {
            if args.count > 1, let command = find(Array(args.dropFirst())) {
                print(HelpRenderer.commandHelp(command.type.spec), terminator: "")
                return 0
            }
            print(HelpRenderer.overview(Commands.all), terminator: "")
            return args.count > 1 ? 2 : 0
        }
        guard let found = find(args) else {
            let names = Commands.all.map { $0.spec.name }
            let guess = names.min { ArgumentParser.editDistance($0, first) < ArgumentParser.editDistance($1, first) }
            Console.error(
                "passmint: unknown command '\(first)'." + (guess.map { " Did you mean '\($0)'?" } ?? "")
                    + " Run `passmint help` for the list.")
            return 2
        }
        let command = found.type
        let rest = Array(args.dropFirst(found.consumed))
        if rest.contains("--help") || rest.contains("-h") {
            print(HelpRenderer.commandHelp(command.spec), terminator: "")
            return 0
        }
        return command.execute(rest)
    }

    /// Finds the longest command name ("certs dev" before "certs") that prefixes the arguments.
    private static func find(_ args: [String]) -> (type: any Command.Type, consumed: Int)? {
        for command in Commands.all.sorted(by: { $0.spec.name.count > $1.spec.name.count }) {
            let words = command.spec.name.split(separator: " ").map(String.init)
            if args.count >= words.count, Array(args.prefix(words.count)) == words { return (command, words.count) }
        }
        return nil
    }
}

/// stderr printing.
enum Console {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
