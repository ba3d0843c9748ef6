import Dispatch
import Foundation
import PassMint
import PassService

/// `passmint serve`: the Wallet web service and the push sender.
struct ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve",
        abstract: "run the Wallet update web service and the APNs push sender",
        usage: "serve [--db FILE] [--host 127.0.0.1] [--port 8080] [--apns URL] [--apns-ca FILE] [--admin-token-env VAR]",
        discussion: """
            Serves Apple's PassKit web service under /v1 (registrations, updated passes, log, personalize), the
            admin API under /admin/v1 (bearer token from the environment variable named by --admin-token-env,
            default PASSMINT_ADMIN_TOKEN; disabled when unset), /healthz and /metrics. Passes are re-rendered and
            signed from their stored record. Changes made with `passmint update` or the admin PATCH are pushed to
            every registered device over HTTP/2 with the Pass Type ID certificate as TLS client certificate.
            Stops cleanly on SIGINT or SIGTERM.

            Limits on what is read from clients (each refused with a JSON error naming the option): request
            target 4096 bytes (414), 64 header fields and 16384 bytes of headers (431), body 65536 bytes (413).
            The admin token must be at least 32 characters; the store is created readable by its owner only.
            """,
        options: [
            .value("db", "FILE", "SQLite store (default passmint.db)"),
            .value("host", "ADDR", "address to listen on (default 127.0.0.1)"),
            .value("port", "N", "port (default 8080; 0 picks a free one)"),
            .value("threads", "N", "network threads (default: number of cores, at least 2)"),
            .value("write-workers", "N", "threads for requests that write to the store (default: 16 per core, max 64)"),
            .value("apns", "URL", "APNs base URL (default https://api.push.apple.com)"),
            .value("apns-ca", "FILE", "trust this CA for APNs instead of the system store (tests)"),
            .value("admin-token-env", "VAR", "environment variable holding the admin bearer token"),
            .flag("log-requests", "one line per request on stderr (route, status, time; never tokens)"),
            .value("max-url-bytes", "N", "longest request target, path and query (default 4096; longer: 414)"),
            .value("max-headers", "N", "most header fields in a request (default 64; more: 431)"),
            .value("max-header-bytes", "N", "most bytes of header names and values (default 16384; more: 431)"),
            .value("max-body-bytes", "N", "largest request body (default 65536; larger: 413)"),
            TrustArguments.option,
        ] + IdentityArguments.options,
        examples: [
            "PASSMINT_ADMIN_TOKEN=$(openssl rand -hex 32) passmint serve --db passmint.db --port 8080",
            "passmint serve --db passmint.db --apns https://127.0.0.1:8443 --apns-ca test-ca.pem",
        ]
    )

    let options: ServiceRunner.Options

    init(_ args: ParsedArguments) throws(CLIError) {
        var port = 8080
        if let text = args.value("port") {
            guard let p = Int(text), (0...65535).contains(p) else {
                throw .usage("--port needs a number from 0 to 65535, not '\(text)'")
            }
            port = p
        }
        let defaults = RequestLimits()
        let limits = RequestLimits(
            maxURLBytes: try args.integer("max-url-bytes", of: Self.spec) ?? defaults.maxURLBytes,
            maxHeaderCount: try args.integer("max-headers", of: Self.spec) ?? defaults.maxHeaderCount,
            maxHeaderBytes: try args.integer("max-header-bytes", of: Self.spec) ?? defaults.maxHeaderBytes,
            maxBodyBytes: try args.integer("max-body-bytes", of: Self.spec) ?? defaults.maxBodyBytes)
        let configuration = ServiceConfiguration(
            host: args.value("host") ?? "127.0.0.1", port: port,
            threadPoolSize: try args.integer("threads", of: Self.spec) ?? ServiceConfiguration.defaultThreadPoolSize,
            writeWorkers: try args.integer("write-workers", of: Self.spec) ?? ServiceConfiguration.defaultWriteWorkers,
            limits: limits,
            adminTokenVariable: args.value("admin-token-env") ?? "PASSMINT_ADMIN_TOKEN",
            logRequests: args.flag("log-requests"))
        options = ServiceRunner.Options(
            databasePath: args.value("db") ?? "passmint.db", configuration: configuration,
            apnsURL: args.value("apns") ?? "https://api.push.apple.com", apnsCAFile: args.value("apns-ca"),
            identity: IdentityArguments.make(args), trustRoots: try TrustArguments.load(args))
    }

    func run() throws(CLIError) -> Int32 {
        let runner: ServiceRunner
        do {
            runner = try ServiceRunner(options: options)
            for warning in runner.warnings { Console.error("warning: \(warning)") }
            try runner.start()
        } catch {
            throw error.cli
        }
        let port = runner.service.boundPort ?? options.configuration.port
        // Written unbuffered: a parent reading this line through a pipe must see it now, not at exit.
        let line = "passmint serve: listening on http://\(options.configuration.host):\(port) (store \(options.databasePath), APNs \(options.apnsURL))\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        let interrupt = InterruptRequest(secondStopsAtOnce: false)
        interrupt.wait()
        Console.error("passmint serve: stopping")
        withExtendedLifetime(interrupt) { runner.stop() }  // further signals stay handled (ignored) while it stops
        return 0
    }
}
