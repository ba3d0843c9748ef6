import Foundation
import Synchronization
import Testing
@testable import PassStore
@testable import PassPush
import PassMintTestSupport

/// The pusher of one instance sends what another instance queued as soon as the outbox trigger's notification
/// arrives, not at its next poll.
@Suite(
    "Pusher woken by PostgreSQL notifications",
    .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason),
    .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing))
struct PostgresPusherWakeTests {
    @Test("pushes queued by another instance are sent within seconds by a pusher whose poll is a minute away")
    func wokenByAnotherInstance() async throws {
        let scratch = try TempDir()
        let pki = try PushTestPKI(in: scratch)
        let server = try PushScriptServer(python: TestTools.pythonWithH2!, pki: pki, scratch: scratch)
        defer { server.stop() }
        let url = try PostgresTestServer.freshSchema()
        let listening = try PostgresStore(url: url, poolSize: 2, listensForChanges: true)
        let other = try PostgresStore(url: url, poolSize: 2)
        let passType = PushTestTools.passType
        try other.insertPasses([samplePass("S1", passType: passType)])
        let tokens = (1...3).map { pushToken("aa", $0) }
        for (index, token) in tokens.enumerated() {
            _ = try other.register(device: "device\(index)", passType: passType, serial: "S1", pushToken: token, tag: 1)
        }
        let ready = await waitUntil { listening.isListeningForChanges }
        try #require(ready, "the store never started listening")

        // The first claim looks at a clock in the past, so it finds nothing whenever it runs; then the pusher
        // sleeps for its poll interval (60 s) unless something wakes it.
        let claims = Mutex(0)
        let clock: @Sendable () -> Date = {
            claims.withLock { count in
                defer { count += 1 }
                return count == 0 ? Date(timeIntervalSince1970: 0) : Date()
            }
        }
        let recorder = PushRecorder()
        let pusher = try Pusher(
            outbox: listening, configuration: pki.configuration(port: server.port),
            options: Pusher.Options(pollInterval: 60, clock: clock), onResult: recorder.onResult, log: recorder.log)
        listening.onPushesQueued { pusher.wake() }  // what ServiceRunner wires
        pusher.start()
        defer { pusher.stop() }
        let slept = await waitUntil { claims.withLock { $0 } >= 1 }
        try #require(slept)

        #expect(try other.updateRecord(serial: "S1", record: ["tier": "Gold"]).pushesQueued == 3)
        let sent = await waitUntil(timeout: 15) { ((try? server.requests().count) ?? 0) >= 3 }
        #expect(sent, "the pusher waited for its poll: \(recorder.logLines)")
        #expect(Set(try server.requests().compactMap(\.path)) == Set(tokens.map { "/3/device/\($0)" }))
        let drained = await waitUntil { ((try? listening.outboxDepth()) ?? 1) == 0 }
        #expect(drained)
    }
}
