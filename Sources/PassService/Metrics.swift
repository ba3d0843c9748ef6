import Foundation
import Synchronization
import PassConcurrency
import PassStore
import PassHTTP

/// Counters behind `GET /metrics` (Prometheus text format 0.0.4). Thread-safe; one instance per service.
package final class Metrics: Sendable {
    private struct RequestKey: Hashable {
        var route: String
        var status: Int
    }

    private let requests = SleepingLock<[RequestKey: Int]>([:])
    private let pushes = Mutex<[String: Int]>([:])
    /// Push outcomes by result and APNs reason ("" for a delivered push).
    private let pushReasons = Mutex<[PushReasonKey: Int]>([:])
    /// Pass events written to the store and dropped (queue full, or the store refused a batch).
    private let eventCounts = Mutex<(written: Int, dropped: Int)>((0, 0))
    /// Writes without credentials by kind and result; rows deleted by retention by kind.
    let unauthenticatedWrites = Mutex<[UnauthenticatedWriteKey: Int]>([:])
    let unauthenticatedExpired = Mutex<[UnauthenticatedKind: Int]>([:])
    private let refusals = Mutex<[ConnectionRefusal: Int]>([:])
    /// Google outbox rows by result, and Google callbacks by outcome (`Metrics+Google.swift`).
    let googleResults = Mutex<[String: Int]>([:])
    let googleCallbacks = Mutex<[String: Int]>([:])
    /// Set once by the service that records into it; read only when the text is rendered.
    private let durations = Mutex<RequestDurations?>(nil)
    /// The install totals last read from the store and when (see `installTotals(refreshingWith:)`).
    private let installs = Mutex<(at: ContinuousClock.Instant, totals: [InstallTotals])?>(nil)
    /// How old the install totals on `/metrics` may be: a scrape reads the store at most this often.
    let installRefresh: Duration
    /// The end of validity of the certificate passes are signed with now (nil: not known, gauges left out).
    private let signingCertificateNotAfter = Mutex<Date?>(nil)
    /// How long before the end of validity `passmint_signing_certificate_expiring` turns 1.
    package static let expiryWarningSeconds: TimeInterval = 30 * 86_400

    package init() { installRefresh = .seconds(5) }

    /// - Parameter installRefresh: how long install totals are served from memory before the store is read again.
    init(installRefresh: Duration) { self.installRefresh = installRefresh }

    /// The install totals, read with `load` only when the last read is older than `installRefresh`, so scrapes
    /// cost no store query most of the time; nil when the store cannot be read and nothing was read before.
    func installTotals(refreshingWith load: () throws -> [InstallTotals]) -> [InstallTotals]? {
        let now = ContinuousClock.now
        if let cached = installs.withLock({ $0 }), now - cached.at < installRefresh { return cached.totals }
        guard let fresh = try? load() else { return installs.withLock { $0?.totals } }
        installs.withLock { $0 = (now, fresh) }
        return fresh
    }

    /// Records the end of validity of the signing certificate in use (at start and after each reload).
    package func setSigningCertificate(notAfter: Date) {
        signingCertificateNotAfter.withLock { $0 = notAfter }
    }

    /// Makes the duration histograms for a route table (labels in table order) and renders them from now on.
    /// The caller keeps the returned value and records into it directly, so the hot path takes no lock here.
    func makeRequestDurations(routes: [String]) -> RequestDurations {
        let made = RequestDurations(routes: routes)
        durations.withLock { $0 = made }
        return made
    }

    /// Counts one answered request; `route` is the route label ("GET /v1/passes/:passType/:serial") or
    /// "unmatched".
    package func recordRequest(route: String, status: Int) {
        requests.withLock { $0[RequestKey(route: route, status: status), default: 0] += 1 }
    }

    /// Counts one push outcome, e.g. "sent", "retry", "dropped", "failed". Called by the pusher.
    package func recordPush(result: String) {
        pushes.withLock { $0[result, default: 0] += 1 }
    }

    /// Counts one push outcome with APNs' reason (nil for a delivered push). A reason outside Apple's documented
    /// list counts as "other", so a misbehaving server cannot make the label set grow.
    package func recordPush(result: String, reason: String?) {
        recordPush(result: result)
        let key = PushReasonKey(result: result, reason: Self.knownReason(reason))
        pushReasons.withLock { $0[key, default: 0] += 1 }
    }

    /// How many pushes ended with `result` for `reason`.
    package func pushCount(result: String, reason: String?) -> Int {
        pushReasons.withLock { $0[PushReasonKey(result: result, reason: Self.knownReason(reason))] ?? 0 }
    }

    /// Counts pass events written and dropped by the event writer.
    package func recordEvents(written: Int, dropped: Int) {
        eventCounts.withLock {
            $0.written += written
            $0.dropped += dropped
        }
    }

    /// APNs' documented reasons ("Handling notification responses from APNs"), and PassMint's own for a push
    /// that got no answer.
    static let apnsReasons: Set<String> = [
        "BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic",
        "DeviceTokenNotForTopic", "DuplicateHeaders", "IdleTimeout", "InvalidPushType", "MissingDeviceToken",
        "MissingTopic", "PayloadEmpty", "TopicDisallowed", "BadCertificate", "BadCertificateEnvironment",
        "ExpiredProviderToken", "Forbidden", "InvalidProviderToken", "MissingProviderToken", "BadPath",
        "MethodNotAllowed", "ExpiredToken", "Unregistered", "PayloadTooLarge", "TooManyProviderTokenUpdates",
        "TooManyRequests", "InternalServerError", "ServiceUnavailable", "Shutdown",
    ]

    static func knownReason(_ reason: String?) -> String {
        guard let reason else { return "" }
        if apnsReasons.contains(reason) { return reason }
        if reason.hasPrefix("HTTP ") { return "no reason" }
        return "other"
    }

    /// Counts one connection refused or cut by the HTTP server (per-address cap, request deadlines).
    package func recordRefusal(_ reason: ConnectionRefusal) {
        refusals.withLock { $0[reason, default: 0] += 1 }
    }

    /// How many connections were refused or cut for `reason`.
    package func refusalCount(_ reason: ConnectionRefusal) -> Int {
        refusals.withLock { $0[reason] ?? 0 }
    }

    /// How many requests of `route` were answered with `status`.
    package func requestCount(route: String, status: Int) -> Int {
        requests.withLock { $0[RequestKey(route: route, status: status)] ?? 0 }
    }

    /// How many pushes ended with `result`.
    package func pushCount(result: String) -> Int {
        pushes.withLock { $0[result] ?? 0 }
    }

    /// The Prometheus exposition text; gauges that could not be read are left out.
    /// - Parameter unauthenticated: per kind what is stored and its cap (nil: the store could not be read).
    /// - Parameter oldestPendingPush: when the oldest push in the outbox was first due (nil: the outbox is empty or
    ///   could not be read).
    package func render(
        registrations: Int?, outboxDepth: Int?, installs: [InstallTotals]? = nil,
        unauthenticated: [(UnauthenticatedKind, UnauthenticatedUsage, cap: Int)]? = nil,
        oldestPendingPush: Date?? = nil, now: Date = Date()
    ) -> String {
        var out = "# HELP passmint_http_requests_total HTTP requests answered, by route and status.\n"
        out += "# TYPE passmint_http_requests_total counter\n"
        let requestRows = requests.withLock { $0 }.sorted {
            ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status)
        }
        for (key, count) in requestRows {
            out += "passmint_http_requests_total{route=\(Self.label(key.route)),status=\"\(key.status)\"} \(count)\n"
        }
        if let durations = durations.withLock({ $0 }) { out += durations.render(label: Self.label) }
        out += "# HELP passmint_pushes_total Push notifications by result.\n"
        out += "# TYPE passmint_pushes_total counter\n"
        for (result, count) in pushes.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            out += "passmint_pushes_total{result=\(Self.label(result))} \(count)\n"
        }
        out += "# HELP passmint_push_results_total Push notifications by result and APNs reason (empty when "
        out += "delivered; other: a reason APNs does not document; no reason: none in the answer).\n"
        out += "# TYPE passmint_push_results_total counter\n"
        for (key, count) in pushReasons.withLock({ $0 }).sorted(by: {
            ($0.key.result, $0.key.reason) < ($1.key.result, $1.key.reason)
        }) {
            out +=
                "passmint_push_results_total{result=\(Self.label(key.result)),reason=\(Self.label(key.reason))} \(count)\n"
        }
        if let oldestPendingPush {
            out += "# HELP passmint_push_oldest_pending_seconds Age of the oldest push still waiting in the outbox "
            out += "(since it was first due; 0 when none waits).\n"
            out += "# TYPE passmint_push_oldest_pending_seconds gauge\n"
            let age = oldestPendingPush.map { max(0, now.timeIntervalSince($0)) } ?? 0
            out += "passmint_push_oldest_pending_seconds \(String(format: "%.3f", age))\n"
        }
        let counted = eventCounts.withLock { $0 }
        out += "# HELP passmint_pass_events_total Pass events (passmint trace) by what became of them.\n"
        out += "# TYPE passmint_pass_events_total counter\n"
        out += "passmint_pass_events_total{result=\"written\"} \(counted.written)\n"
        out += "passmint_pass_events_total{result=\"dropped\"} \(counted.dropped)\n"
        out += "# HELP passmint_http_refused_total Connections refused or cut by the server before an answer: "
        out += "per_address_limit, head_timeout, body_timeout.\n"
        out += "# TYPE passmint_http_refused_total counter\n"
        let refused = refusals.withLock { $0 }
        for reason in ConnectionRefusal.allCases {
            out += "passmint_http_refused_total{reason=\"\(reason.rawValue)\"} \(refused[reason] ?? 0)\n"
        }
        if let registrations {
            out += "# HELP passmint_registrations Device registrations stored.\n"
            out += "# TYPE passmint_registrations gauge\n"
            out += "passmint_registrations \(registrations)\n"
        }
        if let outboxDepth {
            out += "# HELP passmint_push_outbox_depth Pushes waiting in the outbox.\n"
            out += "# TYPE passmint_push_outbox_depth gauge\n"
            out += "passmint_push_outbox_depth \(outboxDepth)\n"
        }
        if let notAfter = signingCertificateNotAfter.withLock({ $0 }) {
            out += "# HELP passmint_signing_certificate_expiry_timestamp_seconds End of validity of the signing "
            out += "certificate, in seconds since 1970.\n"
            out += "# TYPE passmint_signing_certificate_expiry_timestamp_seconds gauge\n"
            out += "passmint_signing_certificate_expiry_timestamp_seconds \(Int64(notAfter.timeIntervalSince1970))\n"
            let expiring = notAfter.timeIntervalSince(now) < Self.expiryWarningSeconds
            out += "# HELP passmint_signing_certificate_expiring 1 when the signing certificate expires within 30 "
            out += "days (renew it), else 0.\n"
            out += "# TYPE passmint_signing_certificate_expiring gauge\n"
            out += "passmint_signing_certificate_expiring \(expiring ? 1 : 0)\n"
        }
        if let installs { out += Self.render(installs) }
        out += renderGoogle(installs: installs)
        out += renderUnauthenticated(stored: unauthenticated)
        return out
    }

    /// The install figures' running totals per template (`InstallTotals`), from the store, so they count every
    /// instance's work and survive restarts.
    private static func render(_ installs: [InstallTotals]) -> String {
        let series: [(name: String, type: String, help: String, value: (InstallTotals) -> Int)] = [
            ("passmint_passes_issued_total", "counter", "Passes issued (new serials stored), by template.", \.issued),
            (
                "passmint_passes_added_total", "counter",
                "Passes that got their first registered device, by template.", \.added
            ),
            (
                "passmint_passes_removed_total", "counter",
                "Passes whose last registered device left (unregistered or dead token), by template.", \.removed
            ),
            (
                "passmint_active_devices", "gauge",
                "Distinct devices registered for at least one pass of the template.", \.activeDevices
            ),
        ]
        var out = ""
        for metric in series {
            out += "# HELP \(metric.name) \(metric.help)\n# TYPE \(metric.name) \(metric.type)\n"
            for totals in installs {
                out += "\(metric.name){template=\(label(totals.template))} \(metric.value(totals))\n"
            }
        }
        return out
    }

    /// A quoted, escaped Prometheus label value.
    static func label(_ value: String) -> String {
        var out = "\""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}

/// A push result and its APNs reason, the labels of `passmint_push_results_total`.
struct PushReasonKey: Hashable {
    var result: String
    var reason: String
}
