import Foundation
import PassHTTP
import PassStore
/// `POST /v1/log` (wallet-spec §6, call 5): Wallet's diagnostics, stored as untrusted text.
struct LogHandlers: Sendable {
    let context: HandlerContext
    static let maxLines = 100
    static let maxLineLength = 4096

    private struct LogBody: Decodable {
        var logs: [String]
    }

    /// Stores the lines (at most `maxLines`, each cut at `maxLineLength`) unless the client address has sent its
    /// hour's budget or the stored lines are at their cap: then 429 with `Retry-After`, nothing written.
    func append(_ request: Request) throws(HTTPError) -> Response {
        let body = try decodeBody(LogBody.self, request, expected: #"{"logs": ["…"]}"#)
        let lines = body.logs.prefix(Self.maxLines).map { String($0.prefix(Self.maxLineLength)) }
        guard !lines.isEmpty else { return .empty(200) }
        if let wait = context.logBudget.take(logUsage(lines), from: request.clientAddress) {
            context.metrics.recordUnauthenticated(.log, .addressLimit)
            throw HandlerContext.tooMany(
                "this address has sent the log lines the service takes from one address per hour", retryAfter: wait)
        }
        let limit = context.unauthenticated.maxLogBytes
        guard try context.storeCall({ try context.store.appendLogs(lines, maxStoredBytes: limit) }) else {
            context.metrics.recordUnauthenticated(.log, .storeCap)
            throw HandlerContext.tooMany(
                "the service stores no more log lines until older ones expire",
                retryAfter: context.unauthenticated.capRetryAfterSeconds)
        }
        context.metrics.recordUnauthenticated(.log, .stored)
        if let events = context.events {
            let now = Date()
            for line in lines {
                for mention in WalletLogLine.mentions(in: line) {
                    events.record(
                        PassEvent(
                            serial: mention.serial, passType: mention.passType, device: mention.device, at: now,
                            detail: .logged(line: String(line.prefix(PassEvent.maxLogLineLength)))))
                }
            }
        }
        return .empty(200)
    }
}

/// `/healthz` and `/metrics`.
struct OperationsHandlers: Sendable {
    let context: HandlerContext

    func health(_ request: Request) throws(HTTPError) -> Response {
        .text(200, "ok\n")
    }

    func metrics(_ request: Request) throws(HTTPError) -> Response {
        let registrations = try? context.store.registrationsCount()
        let depth = try? context.store.outboxDepth()
        let oldest: Date??
        do { oldest = .some(try context.store.oldestPendingPush()) } catch { oldest = nil }
        let installs = context.metrics.installTotals { try context.store.installTotals() }
        let usage = try? context.store.unauthenticatedUsage()
        let stored = usage.map { usage in
            UnauthenticatedKind.allCases.map { kind in
                (kind, usage[kind] ?? UnauthenticatedUsage(bytes: 0, rows: 0), context.unauthenticated.maxBytes(kind))
            }
        }
        return .text(
            200,
            context.metrics.render(
                registrations: registrations, outboxDepth: depth, installs: installs, unauthenticated: stored,
                oldestPendingPush: oldest),
            contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
