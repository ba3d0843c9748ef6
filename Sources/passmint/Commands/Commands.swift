/// Every command, in the order `passmint help` lists them.
enum Commands {
    static let all: [any Command.Type] = [
        CertsDevCommand.self,
        CertsInspectCommand.self,
        GenerateCommand.self,
        VerifyCommand.self,
        BatchCommand.self,
        ServeCommand.self,
        UpdateCommand.self,
        LinksCommand.self,
        StatsCommand.self,
        MigrateCommand.self,
        PreviewCommand.self,
        LintCommand.self,
    ]
}
