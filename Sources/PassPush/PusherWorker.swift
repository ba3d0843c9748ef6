import PassLog
import Foundation
import PassStore

/// The drain loop run on the pusher thread. Owns the `APNsSender` (created on that thread, never shared).
struct PusherWorker: Sendable {
    let outbox: any PushOutbox
    let configuration: APNsConfiguration
    let options: Pusher.Options
    let onResult: @Sendable (String) -> Void
    let onAnswer: @Sendable (PushResult) -> Void
    let log: @Sendable (String) -> Void
    let control: PusherControl

    func run() {
        var client: APNsSender
        do {
            client = try APNsSender(configuration: configuration)
        } catch {
            log(ServiceLog.line("cannot start", error))
            return
        }
        // While the store is away (a database restart) one line when claiming starts failing and one when it
        // works again, not one per poll.
        var failing = false
        while !control.isStopping {
            if let credential = control.takeCredential() {
                var renewed = configuration
                renewed.credential = credential
                do { client = try APNsSender(configuration: renewed) } catch {
                    log(ServiceLog.line("keeping the previous APNs client certificate", error))
                }
            }
            let jobs: [PushJob]
            do {
                jobs = try outbox.claimDuePushes(limit: options.batchSize, now: options.clock(), lease: options.lease)
                if failing {
                    log("claiming due pushes works again")
                    failing = false
                }
            } catch {
                if !failing {
                    log(ServiceLog.line("claiming due pushes failed", error, after: "retrying every second"))
                }
                failing = true
                control.waitForWork(max(options.pollInterval, 1))
                continue
            }
            if jobs.isEmpty {
                control.waitForWork(options.pollInterval)
                continue
            }
            let results = client.send(jobs)
            // One decision per answer (a retry's delay is drawn with jitter), used to record and to apply it.
            let decisions = results.map { options.retryPolicy.decision(for: $0) }
            record(results, decisions)
            var delivered: [Int64] = []
            for (result, decision) in zip(results, decisions) {
                if case .complete = decision {
                    onResult(result.outcome.label)
                    delivered.append(result.job.id)
                } else {
                    apply(result, decision)
                }
            }
            do { try outbox.completePushes(ids: delivered) } catch {
                log(ServiceLog.line("recording \(delivered.count) delivered pushes failed", error))
            }
            let retried = results.filter { $0.outcome.kind == .retry }
            if let first = retried.first, case .retry(let reason) = first.outcome {
                log("\(retried.count) of \(results.count) pushes rescheduled (first reason: \(reason))")
            }
        }
    }

    /// Records the answers as events of their passes (before the rows are completed or dropped) and hands each
    /// to `onAnswer`; `decisions` are what will be done with each.
    func record(_ results: [PushResult], _ decisions: [PushDecision]) {
        for result in results { onAnswer(result) }
        guard let keep = options.eventsPerPass else { return }
        let now = options.clock()
        let attempts = zip(results, decisions).map { result, decision in
            PushAttempt(
                outboxID: result.job.id, status: result.status, reason: result.reason?.description,
                apnsID: result.apnsID,
                apnsTimestamp: result.apnsTimestamp,
                authentication: configuration.authentication(forTopic: result.job.passTypeIdentifier) == .token
                    ? "token" : "certificate",
                at: now, endsRegistrations: decision.deletesRegistrations)
        }
        do { try outbox.recordPushAttempts(attempts, keepPerPass: keep) } catch {
            log(ServiceLog.line("recording \(attempts.count) push answers as pass events failed", error))
        }
    }

    /// Records one answer in the outbox as `decision` says. A failure here leaves the row leased; it is retried
    /// after the lease.
    func apply(_ result: PushResult, _ decision: PushDecision) {
        let job = result.job
        let token = PushToken.redacted(job.pushToken)
        onResult(result.outcome.label)
        do {
            switch decision {
            case .complete:
                try outbox.completePush(id: job.id)
            case .drop(let reason):
                log("push \(job.id) to \(token): \(reason); deleting the registrations of this token")
                try outbox.dropPush(id: job.id, deletingRegistrationsFor: job.pushToken, reason: reason.description)
            case .retry(let delay, let reason):
                if case .failed = result.outcome {
                    log(
                        "push \(job.id) to \(token) refused (HTTP \(result.status)): \(reason); retrying in \(Int(delay)) s"
                    )
                }
                try outbox.retryPush(
                    id: job.id, at: options.clock().addingTimeInterval(delay), reason: reason.description)
            case .giveUp(let reason, let attempts):
                let why = "\(reason) (after \(attempts) attempts)"
                log("push \(job.id) to \(token) given up: \(why)")
                try outbox.abandonPush(id: job.id, reason: why)
            }
        } catch {
            log(
                ServiceLog.line(
                    "recording push \(job.id) to \(token) failed", error, after: "the row is retried after its lease"))
        }
    }
}
