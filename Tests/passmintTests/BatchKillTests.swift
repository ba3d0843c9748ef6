import Foundation
import Testing

/// A batch killed with SIGKILL at random points, several times in one run, each time resumed: in the end every
/// record is issued once, every file is a valid pass, and the store has exactly one row per pass with its token.
@Suite("batch: repeated SIGKILL and --resume (end to end)")
struct BatchKillTests {
    /// Starts the batch, waits until `target` passes exist (or it ends), kills it; returns whether it was killed.
    static func runUntil(_ args: [String], passes target: Int, in folder: String) throws -> Bool {
        let process = try CLI.launch(args)
        waitUntil(timeout: 120) {
            !process.isRunning || Self.passCount(folder) >= target
        }
        guard process.isRunning else { return false }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
    }

    static func passCount(_ folder: String) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".pkpass") }.count
    }

    @Test(
        "three SIGKILLs at random points, each followed by --resume: every record once, every file valid, one store row each"
    )
    func repeatedKills() throws {
        let tmp = try TempDir()
        let count = 600
        try BatchTests.writeCSV(header: "memberName,memberNumber,points", count: count, to: tmp.path("in.csv")) {
            "Member \($0),M\($0),\($0)"
        }
        let out = tmp.path("out")
        let args =
            [
                "batch", "--template", BatchTests.loyalty, "--csv", tmp.path("in.csv"), "--out", out,
                "--report", tmp.path("report.jsonl"), "--jobs", "2", "--db", tmp.path("store.db"),
                "--web-service-url", "https://passes.example.com",
            ] + DevIdentity.signingArgs
        var generator = SystemRandomNumberGenerator()
        var killed = 0
        var targets: [Int] = []
        for round in 0..<3 {
            let floor = Self.passCount(out) + 20
            let target = min(count - 40, Int.random(in: floor...(floor + 120), using: &generator))
            targets.append(target)
            if try Self.runUntil(round == 0 ? args : args + ["--resume"], passes: target, in: out) { killed += 1 }
        }
        #expect(killed >= 2, "the batch was killed \(killed) times (targets \(targets)); it ran faster than the kills")
        let final = try CLI.passmint(args + ["--resume"])
        #expect(final.status == 0, "\(final.stderr)")

        let report = try BatchTests.report(tmp.path("report.jsonl"))
        #expect(report.count == count)
        #expect(report.allSatisfy { $0["status"] as? String == "issued" })
        #expect(Set(report.compactMap { $0["line"] as? Int }).count == count, "a record reported twice")
        let files = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(files.filter { $0.contains(".tmp-") }.isEmpty, "temporary files left behind")
        let passes = files.filter { $0.hasSuffix(".pkpass") }
        #expect(passes.count == count)
        for file in passes {
            #expect(try CLI.run("unzip", ["-tq", "\(out)/\(file)"]).status == 0, "\(file) is damaged")
        }
        for file in passes.shuffled().prefix(30) {
            #expect(try BatchTests.opensslVerifies("\(out)/\(file)", tmp: tmp), "\(file) does not verify")
            // The store row carries the token the pass carries (a kill between files and rows loses nothing).
            let json = try CLI.run("unzip", ["-p", "\(out)/\(file)", "pass.json"]).stdout
            let pass = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let serial = try #require(pass["serialNumber"] as? String)
            let stored = try CLI.run(
                "sqlite3", [tmp.path("store.db"), "SELECT auth_token FROM passes WHERE serial = '\(serial)'"])
            #expect(
                stored.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == pass["authenticationToken"] as? String)
        }
        let rows = try CLI.run(
            "sqlite3", [tmp.path("store.db"), "SELECT count(*), count(DISTINCT serial) FROM passes"])
        #expect(rows.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(count)|\(count)")
    }
}
