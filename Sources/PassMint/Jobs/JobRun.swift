/// A job's totals, how long it has run, and whether it was stopped on request (so far, when given to progress).
package struct JobRun<Tally> {
    package var tally: Tally
    /// Seconds since the job started.
    package var elapsed = 0.0
    /// Stopped between two chunks because `shouldStop` said so: the records after the last committed chunk were
    /// not attempted, and a resumed run does them.
    package var interrupted = false

    package init(tally: Tally) {
        self.tally = tally
    }
}

/// How a job ended, as the summary of a command shows it.
package protocol JobSummary {
    /// Stopped on request before the end (a rerun resumes it).
    var interrupted: Bool { get }
    /// Records that failed (each reported with why).
    var failed: Int { get }
}

extension JobSummary {
    /// The exit status for a job that ended this way: 130 when it was stopped on request (as a shell reports
    /// Ctrl-C), 1 when any record failed, 0 otherwise.
    package var exitStatus: Int32 {
        interrupted ? 130 : failed > 0 ? 1 : 0
    }
}
