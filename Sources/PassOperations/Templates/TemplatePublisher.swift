import Foundation
import PassMint
import PassTemplates
import PassStore

/// `passmint templates publish`: makes a template folder the current version of a template name and moves every
/// pass of that name to it through the shared bulk engine (chunked, resumable, one push per registered device),
/// run by the job engine (`PublishJob`).
///
/// Which passes are "of NAME": those whose stored template is a `TemplateReference` named NAME, and passes stored
/// by an older PassMint with a folder path whose last component (without `.pkpasstemplate`/`.zip`) is NAME; a
/// publish adopts them, so from then on they render from the store too.
package enum TemplatePublisher {
    /// A store a publish works on.
    package typealias Store = any PassStore & TemplateVersionStore & BulkChangeStore

    /// Passes per transaction.
    package static let defaultChunkSize = 500

    /// The bulk position a publish records when it moved every pass: a later run of the same publish (passes
    /// issued from an older version since) is then a new run, not the resumption of a stopped one.
    package static let finishedPosition: Int64 = -1

    /// What a publish would do, worked out without changing anything.
    package struct Plan: Sendable {
        /// What the passes will name.
        package let reference: TemplateReference
        /// The folder's files and digest.
        package let version: TemplateVersion
        /// The name's current version before this publish (nil: never published).
        package let previous: PublishedTemplate?
        /// From the previous version (every file added when there was none).
        package let diff: TemplateDiff
        /// The stored template values whose passes move to the new version, with their counts.
        package let sources: [TemplateUsage]
        /// Passes already moved by an earlier run of this same publish that stopped (nil: none recorded).
        package let interruptedAfter: Int64?
        /// The bulk job's identity (one per name and digest).
        package var job: String { "templates-publish:\(reference)" }
        /// Passes that will get a new tag.
        package var passes: Int { sources.reduce(0) { $0 + $1.passes } }
        /// Device registrations of those passes (each device holding one of them gets a push).
        package var registrations: Int { sources.reduce(0) { $0 + $1.registrations } }
        /// True when `version` is the current version already.
        package var isCurrent: Bool { previous?.digest == version.digest }
        /// The version is current and every pass of the name is on it: publishing would change nothing.
        package var changesNothing: Bool { isCurrent && sources.isEmpty }
        /// An earlier run of this publish stopped with passes left to move: continuing it must be asked for.
        package var needsResume: Bool { interruptedAfter != nil && !sources.isEmpty }
    }

    /// The outcome of `publish` (so far, when given to its progress).
    package struct Outcome: Sendable, Equatable, JobSummary {
        /// Passes moved to the new version (each with a new tag and Last-Modified second).
        package var passesChanged: Int
        /// Outbox rows written (one per registered device).
        package var pushesQueued: Int
        /// The version stored by this publish was new to the store.
        package var storedNewVersion: Bool
        /// Stopped on request before every pass was moved (the committed chunks stay; a rerun moves the rest).
        package var stopped: Bool = false

        package var interrupted: Bool { stopped }
        /// Passes are moved, never refused one by one.
        package var failed: Int { 0 }
    }

    /// Loads and checks the folder and works out what publishing it as `name` changes. Nothing is written.
    ///
    /// The check: every stored pass of the name must resolve against the new template (a new required field,
    /// a dropped enum value fail here), and one pass per tier value is rendered and signed with it; the first
    /// failures are reported with their serial numbers.
    /// - Throws: `OperationError.pipeline` for a bad folder, `.invalidTemplateName`, `.unknownTemplateName`,
    ///   `.templateBreaksPasses` for a failed check, `.store` when the store cannot be read.
    package static func plan(name: String, directory: String, store: Store, renderer: TemplateRenderer)
        throws(OperationError) -> Plan
    {
        let source = try OperationError.fromPipeline { () throws(PassMintError) in
            try PassFactory.templateSource(directory)
        }
        let version = TemplateVersion(files: source.files, designer: source.isDesignerTemplate)
        let reference: TemplateReference
        do {
            reference = try TemplateReference(name: name, digest: version.digest)
        } catch {
            throw .invalidTemplateName(path: nil, error)
        }
        // Loaded from the folder's files, so messages name the folder the user gave; its images are checked as
        // member photos are, since every pass of the name will carry them.
        let template = try OperationError.fromPipeline { () throws(PassMintError) in
            try PassFactory.loadTemplate(source)
        }
        let previous: PublishedTemplate?
        let previousFiles: [String: [UInt8]]?
        let sources: [TemplateUsage]
        let interrupted: Int64?
        do {
            previous = try store.currentTemplate(name: name)
            previousFiles = try previous.flatMap { try store.templateVersion(digest: $0.digest) }?.files
            sources = try store.templateUsage().filter { usage in
                guard let stored = TemplateReference(usage.template) else {
                    return !usage.template.hasPrefix(TemplateReference.prefix)
                        && TemplateReference.name(forPath: usage.template) == name
                }
                return stored.name == name && stored.digest != version.digest
            }
            interrupted = try store.bulkPosition(job: "templates-publish:\(reference)").flatMap {
                $0 == finishedPosition ? nil : $0
            }
        } catch {
            throw .store(.readingPublishState, underlying: error)
        }
        if previous == nil, sources.isEmpty {
            // Most likely a typo: issuing publishes a name's first version, so a name nobody issued from is new.
            let known = (try? store.publishedTemplates().map(\.name)) ?? []
            throw .unknownTemplateName(name, known: known)
        }
        try check(template, against: sources, store: store, renderer: renderer, directory: directory)
        return Plan(
            reference: reference, version: version, previous: previous,
            diff: TemplateDiff(old: previousFiles, new: version.files), sources: sources,
            interruptedAfter: interrupted)
    }

    /// Stores the version, makes it current and moves every pass of the plan to it, one chunk per transaction
    /// (each with its pushes and its progress), on the job engine (`PublishJob`). A run that stops resumes where
    /// it stopped: moved passes no longer match their old template, so a rerun finds only the rest.
    /// - Parameters:
    ///   - reportPath: a JSON Lines report, one line per moved pass (`PublishJob.Moved`), written to a temporary
    ///     name and renamed into place at the end (a stopped publish's too).
    ///   - shouldStop: asked after each committed chunk; true stops the publish there (`Outcome.stopped`).
    ///   - progress: called after each committed chunk with the totals so far.
    /// - Throws: `OperationError.store` when the store fails (the chunks committed so far stay), `.pipeline` when
    ///   the report cannot be written.
    package static func publish(
        _ plan: Plan, store: Store, chunkSize: Int = defaultChunkSize, reportPath: String? = nil,
        shouldStop: () -> Bool = { false }, progress: (Outcome) -> Void = { _ in }
    ) throws(OperationError) -> Outcome {
        let report = try OperationError.fromPipeline { () throws(PassMintError) in
            try reportPath.map { path throws(PassMintError) in try ReportWriter(path: path, style: .slashesEscaped) }
        }
        var outcome = Outcome(passesChanged: 0, pushesQueued: 0, storedNewVersion: false)
        do {
            outcome.storedNewVersion = try store.storeTemplateVersion(plan.version)
            if !plan.isCurrent {
                try store.publishTemplate(
                    name: plan.reference.name, digest: plan.version.digest, onlyIfUnpublished: false)
            }
        } catch {
            throw PublishJob.failure(plan, error, moved: 0)
        }
        var job = PublishJob(plan: plan, store: store, chunkSize: chunkSize)
        let run = try JobEngine.run(&job, tally: outcome, report: report, shouldStop: shouldStop) { progress($0.tally) }
        outcome = run.tally
        outcome.stopped = run.interrupted
        return outcome
    }

    private static func check(
        _ template: Template, against sources: [TemplateUsage], store: Store, renderer: TemplateRenderer,
        directory: String
    ) throws(OperationError) {
        let issuer = renderer.issuer(for: template)
        var renders = TierRenderCheck()
        var failures: [OperationError.PassFailure] = []
        var failed = 0
        do {
            for source in sources {
                var after: String?
                while true {
                    let passes = try store.passes(after: after, limit: defaultChunkSize, templatePath: source.template)
                    guard let last = passes.last else { break }
                    for pass in passes {
                        do throws(OperationError) {
                            do { _ = try template.resolve(pass.record) } catch { throw .pipeline(.template(error)) }
                            let tier = template.tierField.flatMap { pass.record[$0] }
                            try renders.check(TierRenderCheck.key(template: directory, tier: tier)) {
                                () throws(OperationError) in _ = try renderer.issue(pass, with: issuer)
                            }
                        } catch {
                            failed += 1
                            if failures.count < 3 {
                                failures.append(.init(serial: pass.serialNumber, error: error))
                            }
                        }
                    }
                    after = last.serialNumber
                }
            }
        } catch {
            throw .store(.readingPassesToCheck, underlying: error)
        }
        guard failed == 0 else {
            throw .templateBreaksPasses(directory: directory, failed: failed, failures: failures)
        }
    }
}
