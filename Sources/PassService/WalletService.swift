import Foundation
import PassTemplates
import Synchronization
import PassStore
import PassHTTP
import PassOperations
import PassLog

/// The update web service: Wallet's protocol, the admin API, health and metrics, served by libmicrohttpd.
///
/// Handlers are synchronous and run on the server's threads; `respond(to:)` answers a request in-process
/// (tests, tools) through exactly the same routing.
package final class WalletService: Sendable {
    package let configuration: ServiceConfiguration
    package let metrics: Metrics
    let router: Router
    /// Per-route duration histograms (rendered by `metrics`), indexed like `router.routes`.
    let durations: RequestDurations
    private let daemon = Mutex<MHDDaemon?>(nil)
    private let cache: RenderCache
    /// Deletes expired log lines and sign-ups while the service runs.
    let retention: RetentionSweeper
    /// Writes the events of passes in batches off the request path; nil when events are off.
    package let events: EventRecorder?
    /// What the server decides from a request's head before reading its body: admin requests are authenticated
    /// there, and only an authenticated bulk change may send more than `limits.maxBodyBytes`.
    let headGuard: HeadGuard

    /// - Parameters:
    ///   - store: where passes and registrations live.
    ///   - renderer: turns a stored pass into `.pkpass` bytes (cached by serial and tag).
    ///   - recordValidator: checks an admin change and returns the complete new record; default merges.
    ///   - personalization: which passes may be personalized and the signer of their tokens; nil disables
    ///     `…/personalize` (404).
    ///   - environment: where the admin token variable is looked up.
    ///   - onRecordUpdated: called after an admin PATCH stored a change (pass, pushes queued): wake the pusher.
    ///   - updateJobs: runs the bulk updates of `POST /admin/v1/updates`; nil answers that route 501.
    ///   - google: Google Wallet's save links and callback verifier; nil: Apple Wallet only.
    /// - Throws: `ServiceError.weakAdminToken` when the admin token is shorter than 32 characters;
    ///   `HTTPServerError` when the route table is inconsistent.
    package init(
        configuration: ServiceConfiguration, store: any PassStore, renderer: any PassRenderer,
        recordValidator: @escaping RecordValidator = WalletService.mergeRecord,
        personalization: PersonalizationSigning? = nil,
        metrics: Metrics = Metrics(), environment: [String: String] = ProcessInfo.processInfo.environment,
        onRecordUpdated: @escaping @Sendable (StoredPass, Int) -> Void = { _, _ in },
        updateJobs: UpdateJobRunner? = nil, google: GoogleWalletHooks? = nil
    ) throws {
        self.configuration = configuration
        self.metrics = metrics
        let adminToken = try AdminToken.load(from: environment, variable: configuration.adminTokenVariable)
        cache = RenderCache(maxEntries: configuration.renderCacheEntries, maxBytes: configuration.renderCacheBytes)
        let eventStore = store as? any PassEventStore
        let events = configuration.events.flatMap { options in
            eventStore.map { store in
                EventRecorder(store: store, options: options) { written, dropped in
                    metrics.recordEvents(written: written, dropped: dropped)
                }
            }
        }
        self.events = events
        retention = RetentionSweeper(
            store: store, limits: configuration.unauthenticated, metrics: metrics,
            events: configuration.events.flatMap { options in eventStore.map { ($0, options.retentionDays) } })
        var context = HandlerContext(
            store: store, renderer: renderer, cache: cache,
            metrics: metrics, recordValidator: recordValidator, personalization: personalization,
            unauthenticated: configuration.unauthenticated,
            logBudget: AddressBudget(perHour: configuration.unauthenticated.logBytesPerAddressPerHour),
            personalizeBudget: AddressBudget(
                perHour: configuration.unauthenticated.personalizeRequestsPerAddressPerHour),
            adminToken: adminToken, adminTokenVariable: configuration.adminTokenVariable,
            onRecordUpdated: onRecordUpdated, updateJobs: updateJobs)
        context.events = events
        context.eventStore = eventStore
        let handlers = Routes.Handlers(
            context, links: store as? any PassLinkStore, linkBase: configuration.linkBase, google: google)
        self.router = try Router(routes: Routes.table(handlers))
        headGuard = Routes.headGuard(context, limits: configuration.limits)
        durations = metrics.makeRequestDurations(routes: router.routes.map(\.label))
    }

    /// Frees the cached pass bodies after the renderer's signing identity was replaced (they are not served again
    /// either way: each is filed under the identity generation that signed it).
    package func signingIdentityReplaced() {
        cache.removeAll()
    }

    /// The default validator: the stored record with the changed fields replaced and whole-number amounts added,
    /// no other checks.
    package static let mergeRecord: RecordValidator = { pass, change in
        var record = pass.record.merging(change.values) { _, new in new }
        for (key, amount) in change.amounts {
            guard let delta = Int64(amount), let current = Int64(record[key] ?? "0"),
                case let (sum, overflow) = current.addingReportingOverflow(delta), !overflow
            else { throw ServiceError.invalidAmount(field: key, amount: amount) }
            record[key] = String(sum)
        }
        return record
    }

    /// Binds `configuration.host`:`configuration.port` and starts serving on the server's own threads (HTTPS only
    /// when `configuration.tls` is set), and the retention sweep (now, then every interval).
    /// - Throws: `HTTPServerError.serverStart` when the address cannot be bound or TLS cannot start.
    package func start() throws(HTTPServerError) {
        let options = MHDDaemon.Options(
            host: configuration.host, port: configuration.port, threadPoolSize: configuration.threadPoolSize,
            writeWorkers: configuration.writeWorkers,
            connectionMemoryLimit: configuration.connectionMemoryLimit,
            connectionTimeoutSeconds: configuration.connectionTimeoutSeconds,
            connectionLimit: configuration.connectionLimit, connectionLimits: configuration.connectionLimits,
            tls: configuration.tls)
        let started = try MHDDaemon(
            options: options, limits: configuration.limits, headGuard: headGuard,
            respond: { [weak self] request in
                self?.respond(to: request) ?? HTTPError(503, "the service is shutting down").response
            },
            refused: { [weak self] method, response, duration in
                guard let self else { return }
                record(method: method, route: durations.unmatched, response: response, duration: duration)
            },
            connectionRefused: { [metrics] reason in metrics.recordRefusal(reason) })
        daemon.withLock { $0 = started }
        events?.start()
        retention.start()
    }

    /// The running server's per-address counts and deadlines; nil when not running.
    var connectionGuard: ConnectionGuard? { daemon.withLock { $0?.connectionGuard } }

    /// Requests the server holds state for right now; nil when not running (tests prove nothing leaks).
    var openRequests: Int? { daemon.withLock { $0?.openRequests } }

    /// The port actually bound (useful with port 0); nil when not running.
    package var boundPort: Int? { daemon.withLock { $0?.port } }

    /// Stops serving; in-flight requests finish first, then the access log is written out.
    package func stop() {
        retention.stop()
        do {
            let running = daemon.withLock { current -> MHDDaemon? in
                defer { current = nil }
                return current
            }
            withExtendedLifetime(running) {}
        }  // released by here, outside the lock: MHD_stop_daemon joins the server threads, so no request is left
        events?.stop()
        configuration.accessLog?.flush()
    }

    /// Routes and answers one request (path parameters are filled in by the router); counts it in the metrics,
    /// times it into its route's histogram and writes its access log line.
    package func respond(to request: Request) -> Response {
        let started = ContinuousClock.now
        var index = durations.unmatched
        let response: Response
        switch router.match(method: request.method, path: request.path) {
        case .found(let found, let parameters):
            index = found
            let route = router.routes[found]
            var request = request
            request.parameters = parameters
            do {
                response = try route.handler(request)
            } catch {
                // A server fault is logged; an `HTTPError` was logged (or needs no log) where it was made.
                if !(error is HTTPError), ((error as? any HTTPResponseError)?.status ?? 500) >= 500 {
                    ServiceLog.error(route.label, error)
                }
                response = Response.answering(error)
            }
        case .badSegment(let found, let message):
            index = found
            response = HTTPError.badRequest(message).response
        case .malformedPath(let message):
            response = HTTPError.badRequest(message).response
        case .methodNotAllowed(let allowed):
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            response =
                HTTPError(
                    405, "method \(request.method) not allowed here; use \(list)",
                    headers: [("Allow", list)]
                ).response
        case .notFound:
            response = HTTPError.notFound("no such endpoint").response
        }
        record(method: request.method, route: index, response: response, duration: ContinuousClock.now - started)
        return response
    }

    /// Counts, times and logs one answered request of route `index` (or `durations.unmatched`).
    private func record(method: HTTPMethod, route index: Int, response: Response, duration: Duration) {
        let label = durations.routes[index]
        metrics.recordRequest(route: label, status: response.status)
        durations.record(route: index, duration: duration)
        configuration.accessLog?.record(
            method: method, route: label, status: response.status, bytes: response.body.count, duration: duration)
    }
}
