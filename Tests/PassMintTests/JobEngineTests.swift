import Foundation
import PassModel
import Testing

@testable import PassMint

/// A job over numbers: chunks of `chunkSize` from `numbers`; a number fails when it is negative; `stopAt` makes
/// the chunk holding it ask to stop; `failCommitAt` makes committing the chunk holding it throw.
private struct NumberJob: ResumableJob {
    struct Outcome: JobOutcome {
        let number: Int
        var reportObject: [String: JSONValue] {
            ["n": .integer(Int64(number)), "status": .string(number < 0 ? "failed" : "done")]
        }
    }

    struct Committed: CommittedChunk {
        var outcomes: [Outcome]
        var stop: Int?
    }

    struct Tally: JobTally, JobSummary {
        var done = 0
        var failed = 0
        var interrupted = false

        mutating func add(_ committed: Committed) {
            for outcome in committed.outcomes {
                if outcome.number < 0 { failed += 1 } else { done += 1 }
            }
        }
    }

    var numbers: [Int]
    var chunkSize: Int
    var stopAt: Int?
    var failCommitAt: Int?
    var read = 0
    var committed: [[Int]] = []
    var ends: [JobEnd] = []
    var exhausted: Bool { read == numbers.count }

    mutating func nextChunk() throws(PassMintError) -> [Int]? {
        guard read < numbers.count else { return nil }
        let chunk = Array(numbers[read..<min(numbers.count, read + chunkSize)])
        read += chunk.count
        return chunk
    }

    mutating func commit(_ chunk: [Int]) throws(PassMintError) -> Committed {
        if let failCommitAt, chunk.contains(failCommitAt) {
            throw .output(path: "chunk \(failCommitAt)", .folderMissing("chunks"))
        }
        committed.append(chunk)
        return Committed(outcomes: chunk.map(Outcome.init), stop: stopAt.flatMap { chunk.contains($0) ? $0 : nil })
    }

    mutating func finish(_ end: JobEnd) throws(PassMintError) {
        ends.append(end)
    }

    func error(stoppingFor reason: Int, after tally: Tally) -> PassMintError {
        .batchStopped(.record(line: reason, .invalidSerial("n\(reason)"), issued: tally.done))
    }
}

@Suite("JobEngine: one loop for every resumable job (chunks, report, stop, progress, summary)")
struct JobEngineTests {
    @Test("every chunk is committed in order, counted, reported one line per record, and told to progress")
    func runsToTheEnd() throws {
        let dir = try TempDir()
        var job = NumberJob(numbers: [1, 2, -3, 4, 5], chunkSize: 2)
        var seen: [Int] = []
        var asked = 0
        let run = try JobEngine.run(
            &job, tally: NumberJob.Tally(), report: try ReportWriter(path: dir.path("r.jsonl")),
            shouldStop: {
                asked += 1
                return false
            }, progress: { seen.append($0.tally.done + $0.tally.failed) })
        #expect(job.committed == [[1, 2], [-3, 4], [5]])
        #expect(run.tally.done == 4 && run.tally.failed == 1 && !run.interrupted)
        #expect(seen == [2, 4, 5])
        #expect(asked == 2, "asked after the first two chunks, not after the last")
        #expect(job.ends == [.completed])
        let lines = try String(contentsOfFile: dir.path("r.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[2] == #"{"n":-3,"status":"failed"}"#)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["r.jsonl"])
    }

    @Test("a stop request is asked for after each committed chunk that is not the last; the job ends there")
    func stopsBetweenChunks() throws {
        let dir = try TempDir()
        var job = NumberJob(numbers: Array(1...10), chunkSize: 3)
        var asked = 0
        let run = try JobEngine.run(
            &job, tally: NumberJob.Tally(), report: try ReportWriter(path: dir.path("r.jsonl")),
            shouldStop: {
                asked += 1
                return asked == 2
            })
        #expect(run.interrupted && asked == 2)
        #expect(job.committed == [[1, 2, 3], [4, 5, 6]])
        #expect(job.ends == [.interrupted])
        let lines = try String(contentsOfFile: dir.path("r.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 6, "the report of a stopped job holds the chunks it committed")

        // Once the source is exhausted, the last chunk is not followed by a question: a stop requested while
        // the last chunk commits ends the job as completed.
        var whole = NumberJob(numbers: Array(1...3), chunkSize: 3)
        var questions = 0
        let done = try JobEngine.run(
            &whole, tally: NumberJob.Tally(), report: nil,
            shouldStop: {
                questions += 1
                return true
            })
        #expect(questions == 0 && !done.interrupted && whole.ends == [.completed])
    }

    @Test("a chunk that cannot be committed ends the job with its error; the report is not kept")
    func commitFailure() throws {
        let dir = try TempDir()
        var job = NumberJob(numbers: Array(1...9), chunkSize: 3, failCommitAt: 5)
        #expect(throws: PassMintError.output(path: "chunk 5", .folderMissing("chunks"))) {
            _ = try JobEngine.run(&job, tally: NumberJob.Tally(), report: try ReportWriter(path: dir.path("r.jsonl")))
        }
        #expect(job.committed == [[1, 2, 3]] && job.ends.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "report or temporary left")
    }

    @Test("a chunk that gives a reason to stop is counted and reported first; then the job finishes and throws")
    func stopReason() throws {
        let dir = try TempDir()
        var job = NumberJob(numbers: Array(1...9), chunkSize: 3, stopAt: 5)
        var thrown: PassMintError?
        do {
            _ = try JobEngine.run(&job, tally: NumberJob.Tally(), report: try ReportWriter(path: dir.path("r.jsonl")))
        } catch {
            thrown = error
        }
        guard case .batchStopped(.record(line: 5, _, let issued))? = thrown else {
            Issue.record("stopped with \(String(describing: thrown)), not at 5")
            return
        }
        #expect(issued == 6, "the error sees the tally with the stopping chunk")
        #expect(job.committed == [[1, 2, 3], [4, 5, 6]] && job.ends == [.stopped])
        let lines = try String(contentsOfFile: dir.path("r.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 6)
    }

    @Test("exit status: 130 when stopped on request, 1 when a record failed, 0 otherwise")
    func exitStatus() {
        #expect(NumberJob.Tally(done: 3, failed: 0, interrupted: false).exitStatus == 0)
        #expect(NumberJob.Tally(done: 3, failed: 1, interrupted: false).exitStatus == 1)
        #expect(NumberJob.Tally(done: 3, failed: 1, interrupted: true).exitStatus == 130)
    }
}
