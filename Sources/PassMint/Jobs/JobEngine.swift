/// Runs a `ResumableJob` a chunk at a time: reads a chunk, has the job commit it, counts its outcomes, appends
/// them to the report and tells `progress`; between chunks it asks whether to stop. One loop for every long job,
/// so they all stop, report and count alike.
///
/// - Stopping (Ctrl-C, SIGTERM): `shouldStop` is asked after each committed chunk, unless the source is known to
///   be exhausted; the job then ends there, its report finished and `JobRun.interrupted` set. A rerun resumes
///   after the last committed chunk.
/// - A chunk that cannot be committed ends the job at once with that error; the report is not kept (its
///   temporary file is removed), the chunks committed before stay.
/// - A committed chunk that gives a reason to stop (a batch whose disk is full) is counted and reported first;
///   then the job finishes what it holds, the report is moved into place, and the job's error is thrown.
package enum JobEngine {
    /// Runs `job` to its end, or until `shouldStop` says so between two chunks.
    /// - Parameters:
    ///   - tally: the totals to count on (a resumed job's starting position, say).
    ///   - report: the JSON Lines report, one line per outcome; finished when the job ends or stops.
    ///   - clock: when the job started (a job that prepares before its first chunk counts that time too).
    ///   - progress: called after each committed chunk with the totals so far.
    /// - Throws: what the job throws reading or committing a chunk, or finishing; the report's write errors as
    ///   the job's (`ResumableJob.reportFailed`).
    package static func run<Job: ResumableJob>(
        _ job: inout Job, tally: Job.Tally, report: ReportWriter?, clock: JobClock = JobClock(),
        shouldStop: () -> Bool = { false }, progress: (JobRun<Job.Tally>) -> Void = { _ in }
    ) throws(Job.Failure) -> JobRun<Job.Tally> {
        var run = JobRun(tally: tally)
        while let chunk = try job.nextChunk() {
            let committed = try job.commit(chunk)
            run.tally.add(committed)
            do { try report?.append(committed.outcomes) } catch { throw Job.reportFailed(error) }
            run.elapsed = clock.seconds
            progress(run)
            if let reason = committed.stop {
                try? job.finish(.stopped)
                try? report?.finish()
                throw job.error(stoppingFor: reason, after: run.tally)
            }
            if !job.exhausted, shouldStop() {
                run.interrupted = true
                break
            }
        }
        try job.finish(run.interrupted ? .interrupted : .completed)
        do { try report?.finish() } catch { throw Job.reportFailed(error) }
        run.elapsed = clock.seconds
        return run
    }
}
