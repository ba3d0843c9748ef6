import Foundation

/// What a long job (`batch`, `update --csv`, `resign`, `templates publish`) gets from the terminal: Ctrl-C or
/// SIGTERM asks it to stop after the chunk in progress (a second one ends the process at once), and a progress
/// bar is drawn when stderr is a terminal.
struct JobTerminal {
    let bar = ProgressBar(enabled: isatty(STDERR_FILENO) == 1)
    private let interrupt = InterruptRequest(secondStopsAtOnce: true)

    /// True once Ctrl-C or SIGTERM arrived: the job's `shouldStop`.
    var stopRequested: Bool { interrupt.requested }
}
