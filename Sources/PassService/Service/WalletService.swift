import Foundation
import Synchronization

/// The update web service: Wallet's protocol, the admin API, health and metrics, served by libmicrohttpd.
///
/// Handlers are synchronous and run on the server's threads; `respond(to:)` answers a request in-process
/// (tests, tools) through exactly the same routing.
public final class WalletService: Sendable {
    public let configuration: ServiceConfiguration
    public let metrics: Metrics
    let router: Router
    private let daemon = Mutex<MHDDaemon?>(nil)

    /// - Parameters:
    ///   - store: where passes and registrations live.
    ///   - renderer: turns a stored pass into `.pkpass` bytes (cached by serial and tag).
    ///   - recordValidator: checks an admin change and returns the complete new record; default merges.
    ///   - tokenSigner: signs personalization tokens; nil disables `…/personalize` (404).
    ///   - environment: where the admin token variable is looked up.
    ///   - onRecordUpdated: called after an admin PATCH stored a change (pass, pushes queued): wake the pusher.
    /// - Throws: `ServiceError.weakAdminToken` when the admin token is shorter than 32 characters;
    ///   `ServiceError` when the route table is inconsistent.
    public init(
        configuration: ServiceConfiguration, store: any PassStore, renderer: any PassRenderer,
        recordValidator: @escaping RecordValidator = WalletService.mergeRecord, tokenSigner: TokenSigner? = nil,
        metrics: Metrics = Metrics(), environment: [String: String] = ProcessInfo.processInfo.environment,
        onRecordUpdated: @escaping @Sendable (StoredPass, Int) -> Void = { _, _ in }
    ) throws {
        self.configuration = configuration
        self.metrics = metrics
        let adminToken = try AdminToken.load(from: environment, variable: configuration.adminTokenVariable)
        let context = HandlerContext(
            store: store, renderer: renderer,
            cache: RenderCache(
                maxEntries: configuration.renderCacheEntries, maxBytes: configuration.renderCacheBytes),
            metrics: metrics, recordValidator: recordValidator, tokenSigner: tokenSigner, adminToken: adminToken,
            adminTokenVariable: configuration.adminTokenVariable, onRecordUpdated: onRecordUpdated)
        self.router = try Router(routes: Routes.table(Routes.Handlers(context)))
    }

    /// The default validator: the stored record with the changed fields replaced, no checks.
    public static let mergeRecord: RecordValidator = { pass, changes in
        pass.record.merging(changes) { _, new in new }
    }

    /// Binds `configuration.host`:`configuration.port` and starts serving on the server's own threads.
    /// - Throws: `ServiceError.serverStart` when the address cannot be bound.
    public func start() throws {
        let options = MHDDaemon.Options(
            host: configuration.host, port: configuration.port, threadPoolSize: configuration.threadPoolSize,
            writeWorkers: configuration.writeWorkers,
            connectionMemoryLimit: configuration.connectionMemoryLimit,
            connectionTimeoutSeconds: configuration.connectionTimeoutSeconds,
            connectionLimit: configuration.connectionLimit)
        let started = try MHDDaemon(options: options, limits: configuration.limits) {
            [weak self] request in
            self?.respond(to: request) ?? HTTPError(503, "the service is shutting down").response
        }
        daemon.withLock { $0 = started }
    }

    /// Requests the server holds state for right now; nil when not running (tests prove nothing leaks).
    var openRequests: Int? { daemon.withLock { $0?.openRequests } }

    /// The port actually bound (useful with port 0); nil when not running.
    public var boundPort: Int? { daemon.withLock { $0?.port } }

    /// Stops serving; in-flight requests finish first.
    public func stop() {
        let running = daemon.withLock { current -> MHDDaemon? in
            defer { current = nil }
            return current
        }
        _ = running  // released here, outside the lock: MHD_stop_daemon joins the server threads
    }

    /// Routes and answers one request (path parameters are filled in by the router).
    public func respond(to request: Request) -> Response {
        let started = configuration.logRequests ? ContinuousClock.now : nil
        var label = "unmatched"
        let response: Response
        switch router.match(method: request.method, path: request.path) {
        case .found(let index, let parameters):
            let route = router.routes[index]
            label = route.label
            var request = request
            request.parameters = parameters
            do {
                response = try route.handler(request)
            } catch {
                response = error.response
            }
        case .badSegment(let index, let message):
            label = router.routes[index].label
            response = HTTPError.badRequest(message).response
        case .malformedPath(let message):
            response = HTTPError.badRequest(message).response
        case .methodNotAllowed(let allowed):
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            response = HTTPError(405, "method \(request.method) not allowed here; use \(list)",
                                 headers: [("Allow", list)]).response
        case .notFound:
            response = HTTPError.notFound("no such endpoint").response
        }
        metrics.recordRequest(route: label, status: response.status)
        if let started {
            let elapsed = ContinuousClock.now - started
            let ms = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            let line = Self.logLine(method: request.method, route: label, status: response.status, milliseconds: ms)
            FileHandle.standardError.write(Data(line.utf8))
        }
        return response
    }

    /// The request log line: method and route pattern, never the path (device IDs) or any header (tokens).
    static func logLine(method: HTTPMethod, route: String, status: Int, milliseconds: Double) -> String {
        (route == "unmatched" ? "\(method) (unmatched)" : route) + " \(status) "
            + String(format: "%.2fms", milliseconds) + "\n"
    }
}
