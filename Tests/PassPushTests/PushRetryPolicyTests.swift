import Foundation
import Testing
@testable import PassStore
@testable import PassPush

@Suite("Push retry policy")
struct PushRetryPolicyTests {
    func result(_ outcome: PushOutcome, attempts: Int) -> PushResult {
        PushResult(
            job: PushJob(id: 1, pushToken: "ab", passTypeIdentifier: "pass.x", attempts: attempts), status: 0,
            apnsID: nil, outcome: outcome)
    }

    @Test("1 s, 2 s, 4 s … doubling per attempt, capped at 1 h")
    func schedule() {
        let policy = PushRetryPolicy()
        let nominal = (0..<14).map { policy.nominalDelay(base: policy.initialDelay, attempts: $0) }
        #expect(nominal == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 3600, 3600])
        #expect(policy.nominalDelay(base: 1, attempts: 10_000) == 3600)
    }

    @Test("jitter stays within ±20 % and never passes the cap")
    func jitter() {
        let policy = PushRetryPolicy()
        #expect(policy.delay(base: 1, attempts: 3, unit: 0) == 8 * 0.8)
        #expect(abs(policy.delay(base: 1, attempts: 3, unit: 0.5) - 8) < 1e-9)
        #expect(abs(policy.delay(base: 1, attempts: 3, unit: 0.999_999) - 9.6) < 1e-4)
        #expect(policy.delay(base: 1, attempts: 40, unit: 0.999) == 3600)
        for _ in 0..<200 {
            let delay = policy.delay(base: 1, attempts: 2, unit: Double.random(in: 0..<1))
            #expect(delay >= 3.2 && delay < 4.8)
        }
    }

    @Test("decisions: delivered completes, unregistered drops, retry backs off, failed backs off long")
    func decisions() {
        let policy = PushRetryPolicy()
        #expect(policy.decision(for: result(.delivered, attempts: 0)) == .complete)
        #expect(
            policy.decision(for: result(.unregistered(reason: "Unregistered"), attempts: 0))
                == .drop(reason: "Unregistered"))
        #expect(
            policy.decision(for: result(.retry(reason: "TooManyRequests"), attempts: 2), unit: 0.5)
                == .retry(delay: 4, reason: "TooManyRequests"))
        #expect(
            policy.decision(for: result(.failed(reason: "Forbidden"), attempts: 0), unit: 0.5)
                == .retry(delay: 60, reason: "Forbidden"))
        #expect(
            policy.decision(for: result(.failed(reason: "Forbidden"), attempts: 2), unit: 0.5)
                == .retry(delay: 240, reason: "Forbidden"))
    }

    @Test("give up after the maximum attempts, keeping registrations")
    func givesUp() {
        let policy = PushRetryPolicy(maxRetryAttempts: 3, maxFailedAttempts: 2)
        #expect(
            policy.decision(for: result(.failed(reason: "Forbidden"), attempts: 0), unit: 0.5)
                == .retry(delay: 60, reason: "Forbidden"))
        #expect(
            policy.decision(for: result(.failed(reason: "Forbidden"), attempts: 1))
                == .giveUp(reason: "Forbidden", attempts: 2))
        #expect(
            policy.decision(for: result(.retry(reason: .status(500)), attempts: 1), unit: 0.5)
                == .retry(delay: 2, reason: .status(500)))
        #expect(
            policy.decision(for: result(.retry(reason: .status(500)), attempts: 2))
                == .giveUp(reason: .status(500), attempts: 3))
    }
}
