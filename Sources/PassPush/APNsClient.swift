internal import CCurl
import Foundation
import PassStore

/// Sends pass-update pushes to APNs over one connection: HTTP/2 over TLS, authenticated either by a Pass Type ID
/// certificate as TLS client certificate or by a provider token (`authorization: bearer`), many streams over one
/// long-lived connection (libcurl multi). Blocking; use it from one thread at a time.
package final class APNsClient {
    private let configuration: APNsConfiguration
    private let route: APNsAuthenticationRoute
    private let baseURL: String
    private let multi: CurlMulti
    private var pool: [CurlEasy] = []
    private var idle: [Int] = []
    private var headerLists: [String: CurlHeaderList] = [:]
    /// The provider token the cached header lists carry (token route only).
    private var headerToken: ProviderTokenSource.Token?

    /// The provider token the last `send` used (token route only): an `ExpiredProviderToken` answer renews it.
    package private(set) var lastToken: ProviderTokenSource.Token?

    /// Connections opened so far (1 while one HTTP/2 connection carries everything).
    package private(set) var connectionsOpened = 0

    /// Creates a client; the connection opens with the first push and stays open across `send` calls.
    /// - Parameter configuration: endpoint, credential, trust and limits.
    /// - Throws: `PushError` when the configuration is invalid or libcurl cannot be set up.
    /// - Parameter route: the certificate (default: `configuration.credential`) or the token this connection uses.
    package init(configuration: APNsConfiguration, route: APNsAuthenticationRoute = .certificate(passType: nil))
        throws(PushError)
    {
        try configuration.validate()
        if route == .token, configuration.token == nil {
            throw .invalidSetting(name: "token route", value: "no APNs auth key configured")
        }
        self.configuration = configuration
        self.route = route
        self.baseURL = try configuration.normalizedBaseURL()
        self.multi = try CurlMulti(maxConcurrentStreams: configuration.maxConcurrentStreams)
    }

    /// The exact header lines of a push for `topic` (the pass type identifier).
    /// `Accept:` with no value removes curl's default `accept: */*`.
    /// - Parameter bearer: the provider token, for a connection authenticated by token.
    package static func headerLines(topic: String, bearer: String? = nil) -> [String] {
        [
            "apns-topic: \(topic)", "apns-push-type: background", "apns-priority: 5", "apns-expiration: 0",
            "content-type: application/json", "Accept:",
        ] + (bearer.map { ["authorization: bearer \($0)"] } ?? [])
    }

    /// Sends one push per job, up to `maxConcurrentStreams` in flight, and waits for every answer.
    /// - Parameter jobs: pushes to send; invalid (non-hex) tokens are answered `BadDeviceToken` without sending.
    /// - Returns: one result per job, in the order of `jobs`.
    package func send(_ jobs: [PushJob]) -> [PushResult] {
        var results = [PushResult?](repeating: nil, count: jobs.count)
        if route == .token, let source = configuration.token?.source {
            do {
                let token = try source.token()
                lastToken = token
                if token != headerToken {
                    headerLists.removeAll()
                    headerToken = token
                }
            } catch {
                return jobs.map {
                    PushResult(job: $0, status: 0, apnsID: nil, outcome: .failed(reason: .sender(error)))
                }
            }
        }
        var inFlight: [Int: Int] = [:]  // slot -> job index
        var next = 0
        while next < jobs.count || !inFlight.isEmpty {
            while next < jobs.count && inFlight.count < configuration.maxConcurrentStreams {
                let index = next
                next += 1
                if let early = start(jobs[index], inFlight: &inFlight, index: index) { results[index] = early }
            }
            if inFlight.isEmpty { continue }
            do {
                try multi.perform()
            } catch {
                for (slot, index) in inFlight {
                    multi.remove(pool[slot])
                    idle.append(slot)
                    results[index] = PushResult(
                        job: jobs[index], status: 0, apnsID: nil, outcome: .retry(reason: .sender(error)))
                }
                inFlight.removeAll()
                continue
            }
            let done = multi.completed()
            for (slot, code) in done {
                guard let index = inFlight.removeValue(forKey: slot) else { continue }
                let easy = pool[slot]
                let transfer = easy.finish(code: code)
                multi.remove(easy)
                idle.append(slot)
                connectionsOpened += transfer.newConnections
                results[index] = Self.result(for: jobs[index], transfer)
            }
            if done.isEmpty { multi.poll(timeoutMs: 100) }
        }
        return results.enumerated().map { index, result in
            result ?? PushResult(job: jobs[index], status: 0, apnsID: nil, outcome: .retry(reason: .notSent))
        }
    }

    /// Starts one transfer; returns a result at once when the job cannot be sent.
    private func start(_ job: PushJob, inFlight: inout [Int: Int], index: Int) -> PushResult? {
        guard let token = PushToken(job.pushToken) else {
            return PushResult(job: job, status: 0, apnsID: nil, outcome: .unregistered(reason: .malformedDeviceToken))
        }
        guard Self.isValidTopic(job.passTypeIdentifier) else {
            return PushResult(job: job, status: 0, apnsID: nil, outcome: .failed(reason: .invalidTopic))
        }
        do throws(PushError) {
            let easy = try idleHandle()
            let headers = try headerList(topic: job.passTypeIdentifier)
            do throws(PushError) {
                try easy.prepare(url: "\(baseURL)/3/device/\(token.hex)", headers: headers)
                try multi.add(easy)
            } catch {
                idle.append(easy.slot)
                throw error
            }
            inFlight[easy.slot] = index
            return nil
        } catch {
            return PushResult(job: job, status: 0, apnsID: nil, outcome: .retry(reason: .sender(error)))
        }
    }

    private func idleHandle() throws(PushError) -> CurlEasy {
        if let slot = idle.popLast() { return pool[slot] }
        let easy = try CurlEasy(
            slot: pool.count, configuration: configuration, credential: configuration.credential(for: route))
        pool.append(easy)
        return easy
    }

    private func headerList(topic: String) throws(PushError) -> CurlHeaderList {
        if let list = headerLists[topic] { return list }
        let list = try CurlHeaderList(Self.headerLines(topic: topic, bearer: headerToken?.jwt))
        headerLists[topic] = list
        return list
    }

    /// A topic is a reverse-DNS identifier: refuse anything that could break the header line.
    static func isValidTopic(_ topic: String) -> Bool {
        !topic.isEmpty && topic.utf8.count <= 255
            && topic.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != ":" }
    }

    private static func result(for job: PushJob, _ transfer: CurlTransferResult) -> PushResult {
        if let error = transfer.error {
            return PushResult(job: job, status: 0, apnsID: nil, outcome: .retry(reason: .transport(error)))
        }
        let reason = errorReason(transfer.body)
        return PushResult(
            job: job, status: transfer.status, apnsID: transfer.apnsID,
            outcome: PushOutcome.classify(status: transfer.status, reason: reason),
            apnsTimestamp: errorTimestamp(transfer.body))
    }

    /// The `timestamp` of an APNs error body (410: when the token stopped being valid), milliseconds since 1970.
    static func errorTimestamp(_ body: [UInt8]) -> Int64? {
        guard !body.isEmpty, let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let number = object["timestamp"] as? NSNumber
        else { return nil }
        return number.int64Value
    }

    /// The `reason` of an APNs error body `{"reason":"…","timestamp":…}`.
    static func errorReason(_ body: [UInt8]) -> String? {
        guard !body.isEmpty, let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let reason = object["reason"] as? String, !reason.isEmpty
        else { return nil }
        return reason
    }
}

@available(*, unavailable)
extension APNsClient: Sendable {}
