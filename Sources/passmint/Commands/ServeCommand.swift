import Dispatch
import Foundation
import PassService
import PassSigning
import PassHTTP
import PassMint
import PassServer

/// `passmint serve`: the Wallet web service and the push sender.
struct ServeCommand: Command {
    static let host = Option<String>("host", "ADDR", "address to listen on (default 127.0.0.1)")
    static let port = Option<Int>.integer(
        "port", "N", "port (default 8080; 0 picks a free one)", in: 0...65535, expected: "a number from 0 to 65535")
    static let threads = Option<Int>.integer("threads", "N", "network threads (default: number of cores, at least 2)")
    static let writeWorkers = Option<Int>.integer(
        "write-workers", "N", "threads for requests that write to the store (default: 16 per core, max 64)")
    static let apns = Option<String>("apns", "URL", "APNs base URL (default https://api.push.apple.com)")
    static let apnsCA = Option<String>("apns-ca", "FILE", "trust this CA for APNs instead of the system store (tests)")
    static let adminTokenEnv = Option<String>(
        "admin-token-env", "VAR", "environment variable holding the admin bearer token")
    static let accessLog = Option<String>(
        "access-log", "FILE", "append a JSON Lines access log to FILE (mode 0600), or - for stdout")
    static let logRequests = Flag("log-requests", "the access log on stderr instead")
    static let tlsCert = Option<String>(
        "tls-cert", "FILE", "serve HTTPS: PEM server certificate, then its intermediates")
    static let tlsKey = Option<String>(
        "tls-key", "FILE", "PEM private key of --tls-cert (unencrypted; read once, never logged)")
    static let maxURLBytes = Option<Int>.integer(
        "max-url-bytes", "N", "longest request target, path and query (default 4096; longer: 414)")
    static let maxHeaders = Option<Int>.integer(
        "max-headers", "N", "most header fields in a request (default 64; more: 431)")
    static let maxHeaderBytes = Option<Int>.integer(
        "max-header-bytes", "N", "most bytes of header names and values (default 16384; more: 431)")
    static let maxBodyBytes = Option<Int>.integer(
        "max-body-bytes", "N", "largest request body (default 65536; larger: 413)")
    static let maxBulkBytes = Option<Int>.integer(
        "max-bulk-bytes", "N",
        "largest body of POST /admin/v1/updates, a bulk change (default 67108864; larger: 413)")
    static let perAddressConnections = Option<Int>.integer(
        "per-address-connections", "N",
        "most connections open from one client address (default 256; 0: no cap)", allowZero: true)
    static let requestTimeout = Option<Int>.integer(
        "request-timeout", "SECONDS",
        "deadline of a request's head, and of its body plus 1 s/KiB (default 30; 0: none)", allowZero: true)

    static let apnsKey = Option<String>(
        "apns-key", "FILE",
        "APNs auth key (.p8) to push with a provider token for the pass types of its team (with --apns-key-id, --apns-team-id)"
    )
    static let apnsKeyID = Option<String>("apns-key-id", "ID", "the auth key's 10-character key ID")
    static let apnsTeamID = Option<String>("apns-team-id", "ID", "the auth key's 10-character team ID")
    static let apnsCertDir = RepeatedOption(
        "apns-cert-dir", "DIR",
        "another Pass Type ID certificate (pass-cert.pem, pass-key.pem, wwdr.pem in DIR) that pushes for its own pass type"
    )
    static let eventsPerPass = Option<Int>.integer(
        "events-per-pass", "N", "most events kept per pass for passmint trace (default 200; the oldest go first)")
    static let eventRetentionDays = Option<Int>.integer(
        "event-retention-days", "DAYS", "events and versions older than this are deleted (default 30)")
    static let noPassEvents = Flag("no-pass-events", "record no events (passmint trace then shows versions only)")

    static let spec = CommandSpec(
        name: "serve",
        abstract: "run the Wallet update web service and the APNs push sender",
        usage:
            "serve [--db FILE | --postgres URL [--pool-size N]] [--host 127.0.0.1] [--port 8080] [--apns URL] [--apns-ca FILE] [--admin-token-env VAR] [--google …]",
        discussion: """
            Serves Apple's PassKit web service under /v1 (registrations, updated passes, log, personalize), the
            admin API under /admin/v1 (bearer token from the environment variable named by --admin-token-env,
            default PASSMINT_ADMIN_TOKEN; disabled when unset), /healthz and /metrics. Passes are re-rendered and
            signed from their stored record. Changes made with `passmint update` or the admin PATCH are pushed to
            every registered device over HTTP/2 with the Pass Type ID certificate as TLS client certificate.
            With --apns-key, --apns-key-id and --apns-team-id the pass types whose certificate is of the key's team
            push with an APNs provider token instead (ES256, one per instance, renewed every 50 minutes and when
            APNs answers ExpiredProviderToken); every other pass type keeps its certificate (--apns-cert-dir adds
            the certificate of another pass type). Apple documents only the certificate for pass updates; the
            token is what other libraries use in production. At start serve says which pass types push how.
            Pushes go to Apple's production host only: the sandbox host is refused.
            Stops cleanly on SIGINT or SIGTERM. On SIGHUP the signing identity is loaded again from the same
            files: a renewed certificate that covers the stored pass types and the team, chains to the WWDR
            intermediate and is valid signs every download from then on; a refused one is logged and the one in
            use kept. A certificate expiring within 30 days is logged at start, after each reload and once a day,
            and /metrics shows passmint_signing_certificate_expiring.

            Limits on what is read from clients (each refused with a JSON error naming the option): request
            target 4096 bytes (414), 64 header fields and 16384 bytes of headers (431), body 65536 bytes (413).
            An admin request is authenticated on its head: without the token it gets 401 before any body byte is
            read, and only an authenticated bulk change may send more than the body limit. One client address
            may hold 256 connections (more are closed at once); a request's head must arrive within 30 s, its
            body within 30 s more plus 1 s per KiB (slower is cut). Behind a reverse proxy every connection comes
            from the proxy: raise --per-address-connections there or set it to 0. The admin token must be at
            least 32 printable characters without spaces; the store is created readable by its owner only.

            Callers without credentials are bounded: POST /v1/log and .../personalize each have an hourly budget
            per client address (an IPv6 address counts by its /64) and a cap on the bytes stored in all; beyond
            either they get 429 with Retry-After and nothing is written. Log lines and sign-ups are deleted after
            --retention-days (at start and every 10 minutes). Personalize signs only a token of Wallet's shape for
            a pass whose template has personalization.json and nfc, not personalized yet, once per pass (a repeat
            gets the same signature); any other request gets the same 404, whether or not the serial exists.

            What happens to each pass is recorded for `passmint trace`: registrations, list requests, downloads,
            APNs answers and the device's log lines that name it, written in batches off the request path, at most
            --events-per-pass per pass (oldest dropped) for --event-retention-days; no authentication token is
            kept, and a push token only as its first 8 characters. --no-pass-events records none.

            --access-log writes one JSON object per answered request: time (UTC), method, route (the pattern,
            such as GET /v1/passes/:passType/:serial, or unmatched), status, bytes (body) and duration_ms; never
            the path, a header or a body, so no device ID, token or push token. /metrics has per-route request
            duration histograms. --tls-cert and --tls-key serve HTTPS only (TLS 1.2 and 1.3) without a proxy.

            --google keeps Google Wallet passes current as well, through a Google outbox beside the push outbox
            (the same guarantees: written with the change, deleted only once Google answered): `templates
            publish` inserts or patches the template's classes; each new version of a pass whose Google object is
            stored (issued with --google into the store, or saved from its /p/ link) patches that object, inserting
            it when Google has none (404); a change Apple announces with a field's changeMessage also adds a
            message with TEXT_AND_NOTIFY, at most 3 per pass per 24 hours (past that the update is silent and
            counted: stats, /metrics). Access tokens come from the service account (JWT bearer grant) and are
            cached until shortly before they expire; 429, 5xx and lost connections are retried with exponential
            back-off (Retry-After respected), 401/403 are logged with what to fix in Google's console. Requests are
            paced to --google-rate per second. /google/images/<sha256>.png serves every template image and member
            photo the store holds (immutable), which classes and objects point at; /p/<token> sends Android
            browsers to the pass's Save to Google Wallet link and shows other browsers both buttons. With
            --google-root-keys, POST /google/callbacks takes Google's save and delete callbacks (ECv2SigningOnly:
            the intermediate key verified against the root keys, then the message; expired keys and messages get
            401, replayed nonces 409) and counts them in the install figures.

            With --postgres (or PASSMINT_DATABASE_URL) several instances share one PostgreSQL database behind a
            load balancer: the schema is migrated by whichever starts first, every instance's pusher drains the
            one outbox. While the database is unreachable requests get 503 with Retry-After; an unreachable
            database at start exits 3.
            """,
        options: [
            host,
            port,
            threads,
            writeWorkers,
            apns,
            apnsCA,
            apnsKey,
            apnsKeyID,
            apnsTeamID,
            apnsCertDir,
            adminTokenEnv,
            LinkArguments.option,
            accessLog,
            logRequests,
            tlsCert,
            tlsKey,
            maxURLBytes,
            maxHeaders,
            maxHeaderBytes,
            maxBodyBytes,
            maxBulkBytes,
            perAddressConnections,
            requestTimeout,
            eventsPerPass,
            eventRetentionDays,
            noPassEvents,
            TrustArguments.option,
        ] + ServeGoogleArguments.options + UnauthenticatedArguments.options
            + StoreArguments.options(dbHelp: StoreArguments.defaultFileHelp)
            + IdentityArguments.options,
        examples: [
            "PASSMINT_ADMIN_TOKEN=$(openssl rand -hex 32) passmint serve --db passmint.db --port 8080",
            "passmint serve --db passmint.db --apns https://127.0.0.1:8443 --apns-ca test-ca.pem",
            "PASSMINT_DATABASE_URL=postgresql://passmint@db.internal/passmint passmint serve --pool-size 16",
            "passmint serve --host 0.0.0.0 --port 443 --tls-cert chain.pem --tls-key key.pem --access-log access.jsonl",
            "passmint serve --db passmint.db --link-base https://passes.example.com --google --google-root-keys google-keys.json",
        ]
    )

    let options: ServiceRunner.Options
    let accessLog: AccessLog.Destination?
    let tls: (certificate: String, key: String)?

    init(_ args: ParsedArguments) throws(CLIError) {
        let port = try args[Self.port] ?? 8080
        let defaults = RequestLimits()
        let limits = RequestLimits(
            maxURLBytes: try args[Self.maxURLBytes] ?? defaults.maxURLBytes,
            maxHeaderCount: try args[Self.maxHeaders] ?? defaults.maxHeaderCount,
            maxHeaderBytes: try args[Self.maxHeaderBytes] ?? defaults.maxHeaderBytes,
            maxBodyBytes: try args[Self.maxBodyBytes] ?? defaults.maxBodyBytes,
            maxUpdateBodyBytes: try args[Self.maxBulkBytes]
                ?? defaults.maxUpdateBodyBytes)
        let connectionDefaults = ConnectionLimits()
        let connectionLimits = ConnectionLimits(
            perAddress: try args[Self.perAddressConnections]
                ?? connectionDefaults.perAddress,
            requestSeconds: try args[Self.requestTimeout]
                ?? connectionDefaults.requestSeconds)
        var configuration = ServiceConfiguration(
            host: args[Self.host] ?? "127.0.0.1", port: port,
            threadPoolSize: try args[Self.threads] ?? ServiceConfiguration.defaultThreadPoolSize,
            writeWorkers: try args[Self.writeWorkers] ?? ServiceConfiguration.defaultWriteWorkers,
            limits: limits, connectionLimits: connectionLimits,
            adminTokenVariable: args[Self.adminTokenEnv] ?? "PASSMINT_ADMIN_TOKEN")
        configuration.linkBase = try LinkArguments.base(args)
        configuration.unauthenticated = try UnauthenticatedArguments.limits(args)
        if args[Self.noPassEvents] {
            if args.given(Self.eventsPerPass) || args.given(Self.eventRetentionDays) {
                throw .usage("--no-pass-events records nothing; leave out --events-per-pass and --event-retention-days")
            }
            configuration.events = nil
        } else {
            let defaults = PassEventOptions()
            configuration.events = PassEventOptions(
                retentionDays: try args[Self.eventRetentionDays] ?? defaults.retentionDays,
                perPass: try args[Self.eventsPerPass] ?? defaults.perPass)
        }
        options = ServiceRunner.Options(
            store: try StoreArguments.location(args) ?? .sqlite(path: "passmint.db"),
            configuration: configuration,
            apnsURL: args[Self.apns] ?? "https://api.push.apple.com", apnsCAFile: args[Self.apnsCA],
            identity: IdentityArguments.make(args), trustRoots: try TrustArguments.load(args),
            apnsToken: try Self.tokenOptions(args),
            pushIdentities: args[Self.apnsCertDir].map { IdentityOptions(defaultDirectory: $0) },
            google: try ServeGoogleArguments.make(args))
        switch (args[Self.accessLog], args[Self.logRequests]) {
        case (let file?, false): accessLog = file == "-" ? .standardOutput : .file(file)
        case (nil, true): accessLog = .standardError
        case (nil, false): accessLog = nil
        case (_?, true): throw .usage("--access-log and --log-requests both name where the access log goes; give one")
        }
        switch (args[Self.tlsCert], args[Self.tlsKey]) {
        case (let certificate?, let key?): tls = (certificate, key)
        case (nil, nil): tls = nil
        case (_?, nil): throw .usage("--tls-cert needs --tls-key, the certificate's private key")
        case (nil, _?): throw .usage("--tls-key needs --tls-cert, the certificate it belongs to")
        }
    }

    /// `--apns-key` with its key ID and team ID, all three or none.
    private static func tokenOptions(_ args: ParsedArguments) throws(CLIError) -> APNsTokenOptions? {
        switch (args[Self.apnsKey], args[Self.apnsKeyID], args[Self.apnsTeamID]) {
        case (nil, nil, nil): return nil
        case (let key?, let id?, let team?): return APNsTokenOptions(keyPath: key, keyID: id, teamID: team)
        default:
            throw .usage(
                "--apns-key, --apns-key-id and --apns-team-id go together: the .p8 file, its key ID and its team ID")
        }
    }

    /// The TLS credentials and the open access log, with the option to change when one cannot be used.
    private func operations() throws(CLIError) -> ServiceConfiguration {
        var configuration = options.configuration
        if let tls {
            do {
                configuration.tls = try TLSCredentials.load(certificatePath: tls.certificate, keyPath: tls.key)
            } catch {
                let option =
                    if case .tlsFile(_, let problem) = error, problem.kind == .privateKey {
                        "--tls-key"
                    } else { "--tls-cert" }
                throw .environment("\(option): \(error)")
            }
        }
        if let accessLog {
            do {
                configuration.accessLog = try AccessLog(accessLog)
            } catch {
                throw .environment("--access-log: \(error)")
            }
        }
        return configuration
    }

    func run() throws(CLIError) -> Int32 {
        // A log reader or client that went away must end a write with EPIPE, not end the service.
        signal(SIGPIPE, SIG_IGN)
        var options = options
        options.configuration = try operations()
        let runner: ServiceRunner
        let reload: any DispatchSourceSignal
        do {
            runner = try ServiceRunner(options: options)
            for warning in runner.warnings { Console.error("warning: \(warning)") }
            for line in runner.pushPlan.lines { Console.error("passmint serve: \(line)") }
            reload = Self.reloadOnHangUp(runner)
            try runner.start(log: { Console.error("passmint serve: \($0)") })
        } catch {
            throw CLIError(error)
        }
        let port = runner.service.boundPort ?? options.configuration.port
        // Written unbuffered: a parent reading this line through a pipe must see it now, not at exit.
        let scheme = options.configuration.tls == nil ? "http" : "https"
        let line =
            "passmint serve: listening on \(scheme)://\(options.configuration.host):\(port) "
            + "(store \(options.store), APNs \(options.apnsURL))\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        let interrupt = InterruptRequest(secondStopsAtOnce: false)
        interrupt.wait()
        Console.error("passmint serve: stopping")
        withExtendedLifetime(interrupt) { runner.stop() }  // further signals stay handled (ignored) while it stops
        reload.cancel()
        return 0
    }

    /// SIGHUP reloads the signing identity. The signal only wakes a dispatch source; the reload runs on its queue,
    /// one at a time, never inside a signal handler.
    private static func reloadOnHangUp(_ runner: ServiceRunner) -> any DispatchSourceSignal {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "passmint.reload"))
        source.setEventHandler {
            do {
                let warnings = try runner.reloadIdentity()
                let certificate = runner.renderer.identity.certificate
                Console.error(
                    "passmint serve: SIGHUP: signing with \(certificate.subject), serial \(certificate.serialNumberHex), "
                        + "valid until \(DateText.utc(certificate.notAfter))")
                for warning in warnings { Console.error("passmint serve: warning: \(warning)") }
            } catch {
                Console.error("passmint serve: SIGHUP: new signing identity refused, the one in use is kept: \(error)")
            }
        }
        source.resume()
        return source
    }
}
