import Foundation
import Testing
@testable import PassStore
@testable import PassPush
import PassMintTestSupport

/// The Pusher draining the real SQLite store's outbox after a pass update.
@Suite(
    "Pusher with SQLiteStore", .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing)
)
struct PushStoreIntegrationTests {
    @Test("an update pushes every registered device once; 410 deletes that registration; the outbox empties")
    func updateFansOut() async throws {
        let scratch = try TempDir()
        let pki = try PushTestPKI(in: scratch)
        let server = try PushScriptServer(python: TestTools.pythonWithH2!, pki: pki, scratch: scratch)
        defer { server.stop() }
        let store = try SQLiteStore(path: scratch.path("passes.sqlite"))
        let passType = PushTestTools.passType
        try store.insertPasses([
            StoredPass(
                serialNumber: "S1", passTypeIdentifier: passType, templatePath: "Templates/loyalty",
                record: ["tier": "Silver"], authenticationToken: String(repeating: "a1", count: 16))
        ])
        let tokens = [pushToken("aa", 1), pushToken("aa", 2), pushToken("410", 3)]
        for (index, token) in tokens.enumerated() {
            _ = try store.register(device: "device\(index)", passType: passType, serial: "S1", pushToken: token, tag: 1)
        }
        #expect(try store.registrationsCount() == 3)
        let (_, queued) = try store.updateRecord(serial: "S1", record: ["tier": "Gold"])
        #expect(queued == 3)

        let recorder = PushRecorder()
        let pusher = try Pusher(
            outbox: store, configuration: pki.configuration(port: server.port),
            options: Pusher.Options(pollInterval: 0.05), onResult: recorder.onResult, log: recorder.log)
        pusher.start()
        pusher.wake()
        let drained = await waitUntil { ((try? store.outboxDepth()) ?? 1) == 0 }
        pusher.stop()
        #expect(drained)

        #expect(try store.registrationsCount() == 2)
        #expect(recorder.results.sorted() == ["delivered", "delivered", "unregistered"])
        let requests = try server.requests()
        #expect(Set(requests.compactMap(\.path)) == Set(tokens.map { "/3/device/\($0)" }))
        #expect(requests.allSatisfy { $0.plainHeaders.contains { $0 == ("apns-topic", passType) } && $0.body == "{}" })
        let history = try #require(try store.details(serial: "S1")).pushHistory.map(\.result.rawValue).sorted()
        #expect(history == ["dropped", "sent", "sent"])
    }
}
