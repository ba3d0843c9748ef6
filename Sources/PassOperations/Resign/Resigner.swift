import Foundation
import PassMint
import PassSigning
import PassStore

/// `passmint resign`: after a certificate renewal, checks the new identity against the store and gives every
/// stored pass a new tag with one push per registered device, through the shared bulk engine (chunked, each chunk
/// with its pushes and its progress in one transaction, resumable) run by the job engine (`ResignJob`).
///
/// Nothing is rendered here: `serve` renders and signs on download, so once it signs with the new identity (SIGHUP
/// or a restart), the pushes make every phone fetch a pass signed by it.
package final class Resigner {
    /// What `resign` was asked for.
    package struct Options: Sendable {
        package var store: StoreLocation
        /// The renewed identity.
        package var identity: IdentityOptions
        /// The certificate the stored passes are signed with now: its team must be the new one's (nil: not
        /// compared).
        package var previousCertificatePath: String?
        package var trustRoots: TrustRoots
        /// JSON Lines, one object per pass re-signed (those of an interrupted run it resumes marked `resumed`):
        /// written to a temporary name, renamed at the end.
        package var reportPath: String?
        /// Continue the job this certificate started (after a kill or an interruption).
        package var resume: Bool
        package var chunkSize: Int

        package init(
            store: StoreLocation, identity: IdentityOptions, previousCertificatePath: String? = nil,
            trustRoots: TrustRoots = .none, reportPath: String? = nil, resume: Bool = false,
            chunkSize: Int = defaultBulkChunkSize
        ) {
            self.store = store
            self.identity = identity
            self.previousCertificatePath = previousCertificatePath
            self.trustRoots = trustRoots
            self.reportPath = reportPath
            self.resume = resume
            self.chunkSize = chunkSize
        }
    }

    /// How far the job is, after each committed chunk.
    package struct Progress: Sendable {
        /// Passes re-signed so far, by this run and the runs it resumes.
        package let done: Int
        package let total: Int
        package let elapsed: Double
    }

    /// What the job did.
    package struct Summary: Sendable, JobSummary {
        /// The job's name in the store (`resign:` and the new certificate's SHA-256).
        package let job: String
        package let total: Int
        /// Passes re-signed by this run.
        package let resigned: Int
        /// Passes an earlier, interrupted run of the same job had re-signed.
        package let resumed: Int
        package let pushesQueued: Int
        package let elapsed: Double
        /// Stopped at a chunk boundary on request; `--resume` does the rest.
        package let interrupted: Bool
        /// Passes are re-tagged, never refused one by one.
        package var failed: Int { 0 }
    }

    /// The new certificate.
    package let certificate: Certificate
    /// Stored passes per pass type.
    package let passTypes: [String: Int]
    /// Worth saying before the job runs: a certificate close to expiry, the team not compared.
    package let warnings: [ResignWarning]
    private let options: Options
    private let store: any PassStore & BulkChangeStore
    private let job: String

    /// Opens the store and loads and checks the new identity.
    /// - Throws: `OperationError.pipeline` when the identity cannot be loaded or is refused (naming why), `.store`
    ///   when the store cannot be used.
    package init(options: Options) throws(OperationError) {
        guard options.chunkSize > 0 else { throw .chunkSizeZero }
        self.options = options
        let identity = try OperationError.fromPipeline { () throws(PassMintError) in try options.identity.load() }
        certificate = identity.certificate
        let store: any ServiceStore
        do { store = try StoreAccess.open(options.store) } catch { throw .unopenableStore(error) }
        self.store = store
        do {
            passTypes = try store.passTypeCounts()
        } catch {
            throw .store(.readingPassTypes(store: options.store), underlying: error)
        }
        var expectedTeam: (identifier: String, source: String)?
        var warnings: [ResignWarning] = []
        if let previous = options.previousCertificatePath {
            let old: Certificate
            do { old = try Certificate.load(path: previous) } catch { throw .pipeline(.signing(error)) }
            expectedTeam = old.teamIdentifier.map { ($0, "the team of \(previous)") }
        } else {
            warnings.append(.teamNotCompared)
        }
        let check = IdentityRenewalCheck(
            storedPassTypes: Array(passTypes.keys), expectedTeam: expectedTeam, trust: options.trustRoots)
        do throws(IdentityRenewalCheck.Refusal) {
            warnings += try check.check(identity, name: options.identity.certificateName).map(ResignWarning.identity)
        } catch {
            throw .pipeline(.renewalRefused(error, about: options.identity.certificateInput))
        }
        self.warnings = warnings
        job = "resign:" + certificate.sha256Fingerprint.replacingOccurrences(of: ":", with: "").lowercased()
    }

    /// Re-signs every stored pass in serial order, a chunk at a time, on the job engine (`ResignJob`);
    /// `shouldStop` is asked between chunks.
    /// - Throws: `.nothingToResume` or `.resignStarted` for `resume` with no job to resume or a finished job run
    ///   again, `.store` or `.pipeline` when the store or the report fails (the chunks committed so far stay;
    ///   resume).
    package func run(shouldStop: () -> Bool = { false }, progress: (Progress) -> Void = { _ in })
        throws(OperationError) -> Summary
    {
        let clock = JobClock()
        let total = passTypes.values.reduce(0, +)
        let recorded: Int64?
        do { recorded = try store.bulkPosition(job: job) } catch {
            throw .store(.readingResignProgress(store: options.store), underlying: error)
        }
        let startPosition = Int(try startPosition(recorded: recorded, total: total))
        let report = try OperationError.fromPipeline { () throws(PassMintError) in
            try options.reportPath.map { path throws(PassMintError) in try ReportWriter(path: path) }
        }
        var resign = ResignJob(
            store: store, location: options.store, job: job, chunkSize: options.chunkSize, total: total,
            startPosition: startPosition)
        let run = try JobEngine.run(
            &resign, tally: ResignJob.Tally(done: startPosition), report: report, clock: clock, shouldStop: shouldStop
        ) { run in
            progress(Progress(done: run.tally.done, total: total, elapsed: run.elapsed))
        }
        return Summary(
            job: job, total: total, resigned: run.tally.resigned, resumed: startPosition,
            pushesQueued: run.tally.pushesQueued, elapsed: run.elapsed, interrupted: run.interrupted)
    }

    /// Where the job starts: 0 for a new one, the recorded position when resuming.
    private func startPosition(recorded: Int64?, total: Int) throws(OperationError) -> Int64 {
        switch (options.resume, recorded) {
        case (false, nil): return 0
        case (true, let position?): return position
        case (true, nil):
            throw .nothingToResume(
                certificate: certificate.subject, serial: certificate.serialNumberHex, store: options.store.description)
        case (false, let position?):
            throw .resignStarted(
                serial: certificate.serialNumberHex, position: position, total: total,
                store: options.store.description)
        }
    }
}
