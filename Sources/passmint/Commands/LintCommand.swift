struct LintCommand: Command {
    static let spec = CommandSpec(name: "lint", abstract: "design review", usage: "lint")
    init(_ args: ParsedArguments) throws(CLIError) {}
    func run() throws(CLIError) -> Int32 { 0 }
}
