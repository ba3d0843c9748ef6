import Foundation
import Testing

/// Crash safety of the push fan-out: `serve` killed with SIGKILL in the middle of pushing to 5,000 devices,
/// then restarted on the same store, loses no registration and still reaches every device at least once.
@Suite("serve: crash safety (end to end)", .serialized)
struct ServeCrashTests {
    static let devices = 5000

    @Test(
        "SIGKILL during a 5,000-device fan-out, restart: every registration kept, every device pushed at least once",
        .enabled(if: TestTools.pythonWithH2 != nil, TestTools.pythonWithH2Missing),
        .timeLimit(.minutes(5)))
    func killDuringFanOut() throws {
        let python = try #require(TestTools.pythonWithH2)
        let f = try ServeFixture(python: python)
        defer { f.stop() }
        let (_, token) = try f.generate(serial: "CRASH-1")
        let registered = try CLI.run(
            python,
            [
                "-c", ServeTools.registrar, String(f.port), ServeTools.passType, "CRASH-1", token, String(Self.devices),
                "crash", "cd",
            ])
        #expect(
            registered.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"201": \#(Self.devices)}"#,
            "\(registered.stdout) \(registered.stderr)")
        #expect(try f.count("registrations") == Self.devices)

        // The change queues one push per device; kill serve as soon as the stand-in has seen the first of them.
        let updated = try f.update("CRASH-1", ["tier=Gold"])
        try #require(updated.status == 0, "\(updated.stderr)")
        let started = try waitUntil(timeout: 60) { !(try f.pushedTokens()).isEmpty }
        try #require(started, "no push reached the stand-in: \(f.serve.stderr)")
        try f.killAndRestart()
        let beforeKill = try f.pushedTokens().count
        #expect(beforeKill < Self.devices, "the fan-out ended before the kill; the test proved nothing")

        // Pushes claimed by the killed process become due again when their lease ends (30 s).
        let expected = Set((0..<Self.devices).map { pushToken("cd", $0) })
        var pushed: Set<String> = []
        try waitUntil(timeout: 150) {
            pushed = try f.pushedTokens()
            return expected.isSubset(of: pushed)
        }
        #expect(
            expected.subtracting(pushed).isEmpty,
            "\(expected.subtracting(pushed).count) devices never got a push (\(beforeKill) before the kill)")
        #expect(try f.count("registrations") == Self.devices)
        let drained = try waitUntil(timeout: 30) { try f.count("push_outbox") == 0 }
        #expect(drained, "outbox rows left: \((try? f.count("push_outbox")) ?? -1)")
    }
}
