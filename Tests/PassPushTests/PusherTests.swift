import Foundation
import Testing
@testable import PassStore
@testable import PassPush
import PassMintTestSupport

/// The Pusher over an in-memory outbox, sending to PushTestServer.py.
@Suite("Pusher", .serialized, .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
struct PusherTests {
    struct Setup {
        let scratch: TempDir
        let pki: PushTestPKI
        let server: PushScriptServer

        init() throws {
            scratch = try TempDir()
            pki = try PushTestPKI(in: scratch)
            server = try PushScriptServer(python: TestTools.pythonWithH2!, pki: pki, scratch: scratch)
        }
    }

    @Test("drains the outbox: complete, drop with registrations, retry with back-off; labels reported; stop joins")
    func drains() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let outbox = PushMemoryOutbox()
        let good = (0..<5).map { pushToken("aa", $0) }
        let goodIDs = outbox.enqueue(good)
        let gone = outbox.enqueue([pushToken("410", 1), pushToken("400b", 2), "zz-not-hex"])
        let busy = outbox.enqueue([pushToken("429", 3)])[0]
        let refused = outbox.enqueue([pushToken("403", 4)])[0]
        let recorder = PushRecorder()
        let pusher = try Pusher(
            outbox: outbox, configuration: setup.pki.configuration(port: setup.server.port),
            // A lease longer than the test: on a loaded machine a slow answer must not let the row be claimed twice
            // (lease expiry has its own tests).
            options: Pusher.Options(lease: 600, pollInterval: 0.05), onResult: recorder.onResult, log: recorder.log)
        pusher.start()
        let finished = await waitUntil {
            outbox.completed.count + outbox.dropped.count + outbox.retried.count >= 10
        }
        pusher.stop()
        #expect(finished)

        #expect(outbox.completed.sorted() == goodIDs)
        #expect(outbox.dropped.map(\.id).sorted() == gone)
        #expect(outbox.dropped.map(\.reason).sorted() == ["BadDeviceToken", "BadDeviceToken", "Unregistered"])
        #expect(
            Set(outbox.dropped.map(\.pushToken)) == [
                pushToken("410", 1), pushToken("400b", 2), "zz-not-hex",
            ])
        let retries = outbox.retried
        let busyRetry = try #require(retries.first { $0.id == busy })
        let busyDelay = busyRetry.at.timeIntervalSince(busyRetry.recordedAt)
        #expect(busyDelay >= 0.75 && busyDelay <= 1.25, "429 on a first attempt waits 1 s ± 20 %, got \(busyDelay)")
        #expect(busyRetry.reason == "TooManyRequests")
        let refusedRetry = try #require(retries.first { $0.id == refused })
        let refusedDelay = refusedRetry.at.timeIntervalSince(refusedRetry.recordedAt)
        #expect(refusedDelay >= 47 && refusedDelay <= 73, "403 waits 60 s ± 20 %, got \(refusedDelay)")

        #expect(recorder.count("delivered") == 5)
        #expect(recorder.count("unregistered") == 3)
        // The 429 row may come due again (1 s) before the slowest answers arrive on a loaded machine.
        #expect(recorder.count("retry") >= 1)
        // The 403 row comes due again after its 60 s when the answers above took longer than that.
        #expect(recorder.count("failed") >= 1)
        // The invalid token never reached the server; the 7 others did once, the 429 and 403 tokens once per attempt.
        #expect(try setup.server.requests().count == 7 + recorder.count("retry") + recorder.count("failed"))
        // Push tokens are never logged in full.
        let logged = recorder.logLines.joined(separator: "\n")
        #expect(!logged.isEmpty)
        for token in [pushToken("410", 1), pushToken("403", 4)] {
            #expect(!logged.contains(token))
            #expect(logged.contains(PushToken.redacted(token)))
        }
        // stop() joined the thread: a wake afterwards finds no thread to claim rows.
        let claims = outbox.claims
        outbox.enqueue([pushToken("aa", 99)])
        pusher.wake()
        pusher.stop()
        #expect(outbox.claims == claims)
    }

    @Test("a retried row is sent again when due, with a doubled delay")
    func backoffDoubles() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        // The pusher's clock is moved by hand: each retry comes due when the clock passes it, not after real seconds.
        let clock = TestClock()
        let outbox = PushMemoryOutbox(clock: clock.closure)
        let id = outbox.enqueue([pushToken("500", 1)])[0]
        let policy = PushRetryPolicy(initialDelay: 30, jitter: 0)
        let pusher = try Pusher(
            outbox: outbox, configuration: setup.pki.configuration(port: setup.server.port),
            options: Pusher.Options(pollInterval: 0.02, retryPolicy: policy, clock: clock.closure), log: { _ in })
        pusher.start()
        var delays: [TimeInterval] = []
        for attempt in 1...3 {
            #expect(await waitUntil { outbox.retried.count >= attempt })
            guard let retry = outbox.retried.last else { break }
            delays.append(retry.at.timeIntervalSince(retry.recordedAt))
            // Not due before its time: nothing more is claimed until the clock reaches it.
            #expect(outbox.retried.count == attempt)
            clock.advance(retry.at.timeIntervalSince(clock.now) + 0.001)
            pusher.wake()
        }
        pusher.stop()
        #expect(outbox.retried.allSatisfy { $0.id == id })
        #expect(delays == [30, 60, 120], "each retry doubles the delay: \(delays)")
        #expect(try setup.server.requests().count >= 3)
        #expect(try setup.server.connections().count == 1)
    }

    @Test("wake() sends at once instead of waiting for the poll interval")
    func wakes() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let outbox = PushMemoryOutbox()
        let pusher = try Pusher(
            outbox: outbox, configuration: setup.pki.configuration(port: setup.server.port),
            options: Pusher.Options(pollInterval: 30), log: { _ in })
        pusher.start()
        #expect(await waitUntil(timeout: 10) { outbox.claims >= 1 })
        let ids = outbox.enqueue([pushToken("ab", 1)])
        pusher.wake()
        #expect(await waitUntil(timeout: 15) { outbox.completed == ids })
        let started = Date()
        pusher.stop()
        #expect(Date().timeIntervalSince(started) < 20, "stop() interrupts the 30 s poll wait")
    }

    @Test("a .failed row is given up after maxFailedAttempts: abandonPush when offered, else completePush")
    func givesUp() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let policy = PushRetryPolicy(maxFailedAttempts: 1)
        let configuration = setup.pki.configuration(port: setup.server.port)
        let abandoning = PushMemoryOutbox()
        let first = abandoning.enqueue([pushToken("403", 1)])
        let plainBase = PushMemoryOutbox()
        let second = plainBase.enqueue([pushToken("403", 2)])
        for (outbox, memory) in [
            (abandoning as any PushOutbox, abandoning), (PushPlainOutbox(base: plainBase), plainBase),
        ] {
            let pusher = try Pusher(
                outbox: outbox, configuration: configuration,
                options: Pusher.Options(pollInterval: 0.02, retryPolicy: policy), log: { _ in })
            pusher.start()
            #expect(await waitUntil { memory.pending == 0 })
            pusher.stop()
        }
        #expect(abandoning.abandoned == first)
        #expect(abandoning.dropped.isEmpty && abandoning.completed.isEmpty)
        #expect(plainBase.completed == second)
        #expect(plainBase.dropped.isEmpty)
    }

    @Test("nothing is lost while APNs is unreachable: rows are rescheduled, never completed or dropped")
    func unreachable() async throws {
        let setup = try Setup()
        setup.server.stop()
        let outbox = PushMemoryOutbox()
        outbox.enqueue((0..<3).map { pushToken("ab", $0) })
        let recorder = PushRecorder()
        let pusher = try Pusher(
            outbox: outbox, configuration: setup.pki.configuration(port: setup.server.port),
            options: Pusher.Options(pollInterval: 0.02), onResult: recorder.onResult, log: recorder.log)
        pusher.start()
        let retried = await waitUntil { outbox.retried.count >= 3 }
        pusher.stop()
        #expect(retried)
        #expect(outbox.pending == 3)
        #expect(outbox.completed.isEmpty && outbox.dropped.isEmpty)
        #expect(outbox.retried.allSatisfy { $0.reason.hasPrefix("transport:") })
        #expect(recorder.results.allSatisfy { $0 == "retry" })
    }
}
