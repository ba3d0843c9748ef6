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
        ResignCommand.self,
        LinksCommand.self,
        StatsCommand.self,
        TraceCommand.self,
        TemplatesPublishCommand.self,
        TemplatesListCommand.self,
        MigrateCommand.self,
        PreviewCommand.self,
        LintCommand.self,
    ]
}
