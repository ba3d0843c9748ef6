import Foundation
import PassConcurrency
import PassModel
import PassStore

/// The drain loop run on the Google worker's thread. Owns the `GoogleWalletClient` (created on that thread).
struct GoogleDrain: Sendable {
    let store: any PassStore & GoogleWalletStore
    let source: any GoogleResourceSource
    let identity: GoogleIdentity
    let configuration: GoogleAPIConfiguration
    let tokens: GoogleAccessTokens
    let options: GoogleWorker.Options
    let onResult: @Sendable (String) -> Void
    let log: @Sendable (String) -> Void

    func run(_ control: WorkerControl) {
        let client: GoogleWalletClient
        do {
            client = try GoogleWalletClient(identity: identity, configuration: configuration, tokens: tokens)
        } catch {
            log("cannot start: \(error)")
            return
        }
        var round = GoogleRound(drain: self, client: client)
        var failing = false
        while !control.isStopping {
            let jobs: [GoogleJob]
            do {
                jobs = try store.claimDueGoogleJobs(
                    limit: options.batchSize, now: options.clock(), lease: options.lease)
                if failing { log("claiming due Google rows works again") }
                failing = false
            } catch {
                if !failing { log("claiming due Google rows failed: \(error); retrying every second") }
                failing = true
                control.waitForWork(max(options.pollInterval, 1))
                continue
            }
            if jobs.isEmpty {
                control.waitForWork(options.pollInterval)
                continue
            }
            round.done.removeAll()
            for job in jobs {
                if control.isStopping { break }  // the rest come back after their lease, not in doubt of a send
                round.process(job)
            }
        }
    }
}

/// One worker's state across rounds: the client, the classes known to be at Google, the subjects this round
/// finished (a second row for the same pass in one round has nothing left to send).
struct GoogleRound {
    let drain: GoogleDrain
    let client: GoogleWalletClient
    var knownClasses: Set<String> = []
    var done: [String: Result<Void, GoogleAPIError>] = [:]

    init(drain: GoogleDrain, client: GoogleWalletClient) {
        self.drain = drain
        self.client = client
    }

    var store: any PassStore & GoogleWalletStore { drain.store }

    mutating func process(_ job: GoogleJob) {
        let key = job.kind.rawValue + " " + job.subject
        if let earlier = done[key] {
            switch earlier {
            case .success: record { try store.completeGoogleJob(id: job.id, delivery: nil) }
            case .failure(let error): fail(job, error)
            }
            return
        }
        do {
            switch job.kind {
            case .templateClass: try writeClasses(job)
            case .object: try writeObject(job)
            }
            done[key] = .success(())
        } catch let error as GoogleAPIError {
            done[key] = .failure(error)
            fail(job, error)
        } catch let error as GoogleSourceError where error.isTemporary {
            let policy = drain.options.retryPolicy
            guard job.attempts + 1 < policy.maxRefusedAttempts else {
                drain.log("\(job.kind.rawValue) \(job.subject) given up: \(error)")
                record { try store.abandonGoogleJob(id: job.id, reason: error.description) }
                return
            }
            let delay = min(policy.maxDelay, policy.initialDelay * pow(2, Double(min(job.attempts, 30))))
            record {
                try store.retryGoogleJob(
                    id: job.id, at: drain.options.clock().addingTimeInterval(delay), reason: error.description)
            }
        } catch let error as GoogleSourceError {
            done[key] = .success(())
            drain.log("\(job.kind.rawValue) \(job.subject) given up: \(error)")
            drain.onResult("failed")
            record { try store.abandonGoogleJob(id: job.id, reason: error.description) }
        } catch {
            // The store failed: the row stays leased and comes back after its lease.
            drain.log("\(job.kind.rawValue) \(job.subject): \(error); tried again after the lease")
        }
    }

    /// Reschedules or gives up a row Google did not take.
    private func fail(_ job: GoogleJob, _ error: GoogleAPIError) {
        switch drain.options.retryPolicy.decision(for: error, attempts: job.attempts) {
        case .retry(let delay):
            drain.onResult("retry")
            if !error.isTransient || job.attempts == 0 {
                drain.log("\(error.description) (retrying in \(Int(delay.rounded(.up))) s)")
            }
            record {
                try store.retryGoogleJob(
                    id: job.id, at: drain.options.clock().addingTimeInterval(delay), reason: error.description)
            }
        case .giveUp:
            drain.onResult("failed")
            drain.log("\(error.description); given up after \(job.attempts + 1) attempts")
            record { try store.abandonGoogleJob(id: job.id, reason: error.description) }
        }
    }

    private func record(_ body: () throws -> Void) {
        do { try body() } catch { drain.log("recording a Google row failed: \(error); it comes back after its lease") }
    }

    // MARK: Classes

    private mutating func writeClasses(_ job: GoogleJob) throws {
        for made in try drain.source.classes(template: job.subject) { try writeClass(made, force: true) }
        try store.completeGoogleJob(id: job.id, delivery: nil)
        drain.onResult("class")
    }

    /// Inserts the class, or patches it when it exists (the same ID holds the same content unless google.json
    /// fixes the ID). Known classes are not written again by object rows.
    private mutating func writeClass(_ pass: GooglePass, force: Bool) throws(GoogleAPIError) {
        guard force || !knownClasses.contains(pass.classID) else { return }
        let segment = pass.kind.classResource
        do {
            _ = try client.insert(segment, pass.classJSON)
        } catch .conflict {
            _ = try client.patch(segment, id: pass.classID, pass.classJSON)
        }
        knownClasses.insert(pass.classID)
    }

    // MARK: Objects

    private mutating func writeObject(_ job: GoogleJob) throws {
        guard let pass = try store.pass(serial: job.subject), let state = try store.googleObject(serial: job.subject)
        else {
            try store.completeGoogleJob(id: job.id, delivery: nil)
            return
        }
        let update = try drain.source.object(for: pass, delivered: state.deliveredRecord)
        let google = update.pass
        try writeClass(google, force: false)
        let segment = google.kind.objectResource
        // A row in doubt may have been sent before its process died: what Google holds decides.
        var held: JSONValue?
        if job.inDoubt {
            do { held = try client.get(segment, id: google.objectID) } catch .notFound {}
        }
        if job.step == .start {
            if let held, Self.holds(held, google.objectJSON) {
                try store.markGoogleObjectInserted(serial: pass.serialNumber)
            } else {
                drain.onResult(try put(google, segment: segment))
            }
            if update.announcement != nil { try store.advanceGoogleJob(id: job.id, to: .objectWritten) }
        }
        var announced = GoogleDelivery.Announcement.none
        if let announcement = update.announcement {
            let id = "passmint-\(pass.tag)"
            if let held, Self.hasMessage(held, id: id) {
                announced = .notified
            } else {
                let since = drain.options.clock().addingTimeInterval(-drain.options.notifyWindow)
                if try store.googleNotices(serial: pass.serialNumber, since: since) >= drain.options.notifyLimit {
                    announced = .silenced
                } else {
                    _ = try client.addMessage(
                        segment, id: google.objectID, message: announcement.message(id: id, notify: true))
                    announced = .notified
                }
            }
            drain.onResult(announced == .notified ? "notified" : "silenced")
        }
        try store.completeGoogleJob(
            id: job.id,
            delivery: GoogleDelivery(
                serialNumber: pass.serialNumber, tag: pass.tag, record: pass.record, announcement: announced,
                at: drain.options.clock()))
    }

    /// PATCH the object; insert it when Google has none (404); PATCH again when an insert meets one made
    /// meanwhile (a save from a link, 409).
    private func put(_ google: GooglePass, segment: String) throws(GoogleAPIError) -> String {
        do {
            _ = try client.patch(segment, id: google.objectID, google.objectJSON)
            return "patched"
        } catch .notFound {
            do {
                _ = try client.insert(segment, google.objectJSON)
                return "inserted"
            } catch .conflict {
                _ = try client.patch(segment, id: google.objectID, google.objectJSON)
                return "patched"
            }
        }
    }

    /// Whether `held` (Google's object) already has every member of `object` as it is.
    static func holds(_ held: JSONValue, _ object: JSONValue) -> Bool {
        guard let members = object.objectValue else { return false }
        return members.allSatisfy { key, value in held[key] == value }
    }

    static func hasMessage(_ held: JSONValue, id: String) -> Bool {
        (held["messages"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == id }
    }
}
