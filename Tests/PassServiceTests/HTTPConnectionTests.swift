import Foundation
import Testing
import Synchronization
@testable import PassStore
@testable import PassHTTP
@testable import PassService
import PassMintTestSupport

@Suite("HTTP connection behaviour")
struct HTTPConnectionTests {
    @Test("keep-alive: curl reuses one connection for consecutive requests")
    func keepAlive() throws {
        let live = try LiveService()
        let url = "http://127.0.0.1:\(live.port)/healthz"
        let log = try CLI.run("/usr/bin/curl", ["-sv", "-o", "/dev/null", "-o", "/dev/null", url, url]).stderr
        #expect(log.contains("Re-using existing connection") || log.contains("Reusing existing connection"))
    }

    @Test("parallel registrations over HTTP for one device and pass create one row")
    func parallelRegistrations() throws {
        let live = try LiveService()
        let pass = try live.addPass("S1")
        let codes = runParallelRegistrations(port: live.port, pass: pass, count: 8) { _ in "dev1" }
        #expect(codes.filter { $0 == "201" }.count == 1)
        #expect(codes.filter { $0 == "200" }.count == 7)
        #expect(try live.store.registrationsCount() == 1)
    }

    @Test(
        "registrations of 48 devices at once all get 201 through the write workers, and with none (inline)",
        arguments: [16, 0])
    func manyDevicesInParallel(writeWorkers: Int) throws {
        let live = try LiveService(
            configuration: ServiceConfiguration(host: "127.0.0.1", port: 0, writeWorkers: writeWorkers))
        let pass = try live.addPass("S1")
        let codes = runParallelRegistrations(port: live.port, pass: pass, count: 48)
        #expect(codes == Array(repeating: "201", count: 48))
        #expect(try live.store.registrationsCount() == 48)
    }

    @Test("stopping while registrations are in flight neither crashes nor loses an acknowledged one")
    func stopWithRequestsInFlight() throws {
        let live = try LiveService()
        let pass = try live.addPass("S1")
        let port = live.port
        let result = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        Thread {
            result.withLock { $0 = runParallelRegistrations(port: port, pass: pass, count: 40) }
            done.signal()
        }.start()
        try waitUntil(timeout: 10) { try live.store.registrationsCount() > 0 }
        live.service.stop()
        done.wait()
        let codes = result.withLock { $0 }
        let acknowledged = codes.filter { $0 == "201" }.count
        // Each 201 was committed before it was sent; the others never reached a handler or found it stopped.
        #expect(try live.store.registrationsCount() >= acknowledged)
        #expect(codes.allSatisfy { ["201", "000", "503"].contains($0) }, "\(codes)")
    }
}

/// POSTs `count` registrations of `pass` at once with curl, the i-th for device `device(i)` (dev0… unless told)
/// with push token ab000i; returns the status codes ("000": no answer).
private func runParallelRegistrations(
    port: Int, pass: StoredPass, count: Int, device: (Int) -> String = { "dev\($0)" }
) -> [String] {
    let processes = (0..<count).map { i -> Process in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = [
            "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H",
            "Authorization: ApplePass \(pass.authenticationToken)", "--data-binary",
            "{\"pushToken\":\"\(String(format: "ab%04x", i))\"}",
            "http://127.0.0.1:\(port)/v1/devices/\(device(i))/registrations/\(passType)/\(pass.serialNumber)",
        ]
        process.standardOutput = Pipe()
        return process
    }
    for process in processes { try? process.run() }
    return processes.map { process in
        let pipe = process.standardOutput as! Pipe
        let code = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return code
    }
}
