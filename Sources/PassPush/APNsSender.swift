import Foundation
import PassStore

/// Sends each push on the connection its pass type authenticates with (`APNsConfiguration.authentication`): the
/// token connection for the key's team, a certificate connection per other pass type. Connections open on first
/// use and stay open. A push APNs answers `ExpiredProviderToken` is sent again once with a renewed token.
/// Blocking; use it from one thread at a time.
package final class APNsSender {
    private let configuration: APNsConfiguration
    private var clients: [APNsAuthenticationRoute: APNsClient] = [:]

    /// - Throws: `PushError` when the configuration is invalid.
    package init(configuration: APNsConfiguration) throws(PushError) {
        try configuration.validate()
        self.configuration = configuration
    }

    /// Connections opened so far, over every route.
    package var connectionsOpened: Int { clients.values.reduce(0) { $0 + $1.connectionsOpened } }

    /// Sends every job on its route; one result per job, in the order of `jobs`.
    package func send(_ jobs: [PushJob]) -> [PushResult] {
        var results = [PushResult?](repeating: nil, count: jobs.count)
        var byRoute: [APNsAuthenticationRoute: [Int]] = [:]
        for (index, job) in jobs.enumerated() {
            byRoute[configuration.authentication(forTopic: job.passTypeIdentifier), default: []].append(index)
        }
        for (route, indexes) in byRoute.sorted(by: { "\($0.key)" < "\($1.key)" }) {
            let batch = indexes.map { jobs[$0] }
            let answers: [PushResult]
            do {
                answers = try send(batch, route: route)
            } catch {
                answers = batch.map {
                    PushResult(job: $0, status: 0, apnsID: nil, outcome: .retry(reason: .sender(error)))
                }
            }
            for (index, answer) in zip(indexes, answers) { results[index] = answer }
        }
        return results.enumerated().map { index, result in
            result ?? PushResult(job: jobs[index], status: 0, apnsID: nil, outcome: .retry(reason: .notSent))
        }
    }

    private func send(_ jobs: [PushJob], route: APNsAuthenticationRoute) throws(PushError) -> [PushResult] {
        let client = try self.client(route)
        var results = client.send(jobs)
        guard route == .token, let source = configuration.token?.source, let used = client.lastToken else {
            return results
        }
        let expired = results.indices.filter { Self.isExpiredToken(results[$0]) }
        guard !expired.isEmpty else { return results }
        _ = try source.renew(replacing: used.generation)
        let again = client.send(expired.map { jobs[$0] })
        for (index, answer) in zip(expired, again) { results[index] = answer }
        return results
    }

    /// 403 `ExpiredProviderToken`: the token is older than APNs accepts (or APNs thinks so).
    static func isExpiredToken(_ result: PushResult) -> Bool {
        result.status == 403 && result.reason?.apnsCode == "ExpiredProviderToken"
    }

    private func client(_ route: APNsAuthenticationRoute) throws(PushError) -> APNsClient {
        if let client = clients[route] { return client }
        let client = try APNsClient(configuration: configuration, route: route)
        clients[route] = client
        return client
    }
}

@available(*, unavailable)
extension APNsSender: Sendable {}
