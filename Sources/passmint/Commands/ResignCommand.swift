import Foundation
import PassSigning
import PassStore
import PassOperations

/// `passmint resign`: after a certificate renewal, check the new identity and re-sign every stored pass.
struct ResignCommand: Command {
    static let previousCert = Option<String>(
        "previous-cert", "FILE", "the certificate the stored passes are signed with now (team check)")
    static let report = Option<String>("report", "FILE", "write a JSON Lines report, one object per pass re-signed")
    static let resume = Flag("resume", "continue the re-signing this certificate started")
    static let chunkSize = Option<Int>.integer("chunk-size", "N", "passes per transaction (default 500)")

    static let spec = CommandSpec(
        name: "resign",
        abstract: "after a certificate renewal, re-sign every stored pass and push it to its devices",
        usage:
            "resign [--db FILE | --postgres URL] [--cert FILE --key FILE --wwdr FILE | --p12 FILE] [--previous-cert FILE] [--report FILE] [--resume]",
        discussion: """
            Checks the new signing identity against the store: its certificate must be for every pass type of the
            stored passes, of the same team as --previous-cert (the certificate the passes are signed with now),
            chain to the WWDR intermediate (Apple's, PassMint's development one, or --trust-root) and be valid;
            it warns when it expires within 30 days. Then gives every stored pass a new update tag and queues one
            push per registered device, in chunks: each chunk, its pushes and the job's progress commit together.
            An interrupted or killed run continues with --resume (the job is recorded in the store under the new
            certificate's fingerprint). `passmint serve` signs every download: reload it with SIGHUP (or restart
            it) on the new identity first, so the phones that the pushes wake fetch passes signed by it.
            """,
        options: [
            previousCert,
            report,
            resume,
            chunkSize,
            TrustArguments.option,
        ] + StoreArguments.options(dbHelp: StoreArguments.defaultFileHelp) + IdentityArguments.options,
        examples: [
            "passmint resign --db passmint.db --cert new/pass-cert.pem --key new/pass-key.pem --wwdr AppleWWDRCAG4.cer --previous-cert old/pass-cert.pem --report resign.jsonl",
            "passmint resign --db passmint.db --cert new/pass-cert.pem --key new/pass-key.pem --wwdr AppleWWDRCAG4.cer --resume",
        ]
    )

    let options: Resigner.Options

    init(_ args: ParsedArguments) throws(CLIError) {
        options = Resigner.Options(
            store: try StoreArguments.location(args) ?? .sqlite(path: "passmint.db"),
            identity: IdentityArguments.make(args), previousCertificatePath: args[Self.previousCert],
            trustRoots: try TrustArguments.load(args), reportPath: args[Self.report], resume: args[Self.resume],
            chunkSize: try args[Self.chunkSize] ?? defaultBulkChunkSize)
        guard options.chunkSize > 0 else { throw .usage("--chunk-size needs a number of at least 1") }
    }

    func run() throws(CLIError) -> Int32 {
        do {
            let resigner = try Resigner(options: options)
            for warning in resigner.warnings { Console.error("warning: \(warning)") }
            let certificate = resigner.certificate
            Console.error(
                "resign: signing with \(certificate.subject), serial \(certificate.serialNumberHex), valid until "
                    + "\(DateText.utc(certificate.notAfter))")
            let terminal = JobTerminal()
            let summary = try resigner.run(shouldStop: { terminal.stopRequested }) { progress in
                terminal.bar.update(
                    done: progress.done, total: progress.total, elapsed: progress.elapsed, unit: "passes")
            }
            terminal.bar.finish()
            var line = "resign: \(summary.total) passes, \(summary.resigned) re-signed"
            if summary.resumed > 0 { line += ", \(summary.resumed) by the interrupted run" }
            line += ", \(summary.pushesQueued) push(es) queued" + String(format: " in %.2f s", summary.elapsed)
            Console.error(line)
            if summary.interrupted {
                Console.error("resign: interrupted; rerun the same command with --resume to re-sign the rest")
            }
            return summary.exitStatus
        } catch {
            throw CLIError(error)
        }
    }
}
