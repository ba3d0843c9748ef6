import Foundation
import Synchronization
import Testing
@testable import PassStore
@testable import PassHTTP
@testable import PassService
import PassMintTestSupport

/// Returns fixed bytes per (serial, tag) and counts renders.
final class TestRenderer: PassRenderer {
    let renders = Mutex(0)

    func render(_ pass: StoredPass) throws -> [UInt8] {
        renders.withLock { $0 += 1 }
        return Array("PKPASS \(pass.serialNumber) tag \(pass.tag) tier \(pass.record["tier"] ?? "-")".utf8)
    }

    var renderCount: Int { renders.withLock { $0 } }
}

/// One answer as curl saw it.
struct CurlResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] }
}

/// A running service on 127.0.0.1 with a random port, talked to with /usr/bin/curl.
final class LiveService {
    let fixture: StoreFixture
    let renderer = TestRenderer()
    let service: WalletService
    let port: Int
    static let adminToken = "admin-secret-0123456789abcdef0123"

    init(
        configuration: ServiceConfiguration = ServiceConfiguration(host: "127.0.0.1", port: 0),
        environment: [String: String] = ["PASSMINT_ADMIN_TOKEN": LiveService.adminToken],
        recordValidator: @escaping RecordValidator = WalletService.mergeRecord,
        personalization: PersonalizationSigning? = nil
    ) throws {
        fixture = try StoreFixture(clock: TestClock(Date()))
        service = try WalletService(
            configuration: configuration, store: fixture.store, renderer: renderer,
            recordValidator: recordValidator, personalization: personalization, environment: environment)
        try service.start()
        port = try #require(service.boundPort)
    }

    deinit { service.stop() }

    var store: SQLiteStore { fixture.sqlite }

    /// Runs curl; `body` is sent as the request body. `extraHeaders` are sent as given, in order (duplicates
    /// too); `pathAsIs` keeps curl from touching the path.
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8]? = nil,
        expectContinue: Bool = false, extraHeaders: [String] = [], pathAsIs: Bool = false
    ) throws -> CurlResponse {
        let bodyFile = fixture.directory.path("response-\(UUID().uuidString)")
        var arguments = ["-sS", "-o", bodyFile, "-D", "-", "-X", method]
        if !expectContinue { arguments += ["-H", "Expect:"] }
        for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
        for header in extraHeaders { arguments += ["-H", header] }
        if pathAsIs { arguments.append("--path-as-is") }
        if method == "HEAD" { arguments = arguments.filter { $0 != "-X" && $0 != "HEAD" } + ["-I"] }
        if let body {
            let requestFile = fixture.directory.path("request-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: requestFile, contents: Data(body))
            arguments += ["--data-binary", "@\(requestFile)"]
        }
        arguments.append("http://127.0.0.1:\(port)\(path)")
        let data = try CLI.run("/usr/bin/curl", arguments).output
        let responseBody = (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))).map(Array.init) ?? []
        try? FileManager.default.removeItem(atPath: bodyFile)
        return Self.parse(String(decoding: data, as: UTF8.self), body: responseBody)
    }

    /// The same exchange answered in process by `WalletService.respond(to:)`: no socket, no curl. The request target
    /// is screened and split as the server does (`RequestScreen.target`); the route semantics are the server's own.
    func call(
        _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8]? = nil,
        clientAddress: String = "127.0.0.1"
    ) throws -> CurlResponse {
        let (decodedPath, query) = try RequestScreen.target(Array(path.utf8), limits: RequestLimits())
        var fields = HTTPHeaders()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.add(name, value) }
        let request = Request(
            method: HTTPMethod(method), path: decodedPath, query: query, headers: fields, body: body ?? [],
            clientAddress: clientAddress)
        let response = service.respond(to: request)
        return CurlResponse(
            status: response.status, headers: response.headers.fields.map { ($0.name, $0.value) },
            body: response.body.array)
    }

    private static func parse(_ head: String, body: [UInt8]) -> CurlResponse {
        // The last header block wins (curl prints 100 Continue blocks too).
        let blocks = head.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n")
            .filter { $0.hasPrefix("HTTP/") }
        let lines = (blocks.last ?? "").split(separator: "\n").map(String.init)
        let status = lines.first.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return CurlResponse(status: status, headers: headers, body: body)
    }

    /// Stores one pass and returns it as stored.
    func addPass(_ serial: String) throws -> StoredPass {
        try store.insertPasses([samplePass(serial)])
        return try #require(try store.pass(serial: serial))
    }
}

let passType = "pass.com.example.loyalty"

func applePass(_ pass: StoredPass) -> [String: String] {
    ["Authorization": "ApplePass \(pass.authenticationToken)"]
}

func jsonBody(_ object: [String: Any]) -> [UInt8] {
    Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data())
}

extension LiveService {
    /// What came back on a raw connection: every byte until the server closed it, and whether it did close
    /// (false: it was still open after `timeout`).
    struct RawExchange {
        var text: String
        var closedByServer: Bool
        var status: Int? { text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } }
    }

    /// Sends `bytes` as they are (no client normalises them) on a fresh connection and reads until the server
    /// closes it or `timeout` (whole seconds, at least 1) passes; `hangUp` closes right after sending instead.
    @discardableResult
    func raw(_ bytes: [UInt8], timeout: TimeInterval = 10, hangUp: Bool = false) throws -> RawExchange {
        guard let fd = connectLoopback(port: port) else { throw POSIXError(.ECONNREFUSED) }
        defer { close(fd) }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }  // the server may close early on a refused head
            sent += n
        }
        if hangUp { return RawExchange(text: "", closedByServer: false) }
        var wait = timeval(tv_sec: max(1, Int(timeout)), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return RawExchange(text: String(decoding: received, as: UTF8.self), closedByServer: true) }
            if n < 0 {
                if errno == ECONNRESET {
                    return RawExchange(text: String(decoding: received, as: UTF8.self), closedByServer: true)
                }
                return RawExchange(text: String(decoding: received, as: UTF8.self), closedByServer: false)
            }
            received += buffer[0..<n]
        }
    }

    /// Waits until the server holds no request state (every request ended, however it ended).
    func settles(timeout: TimeInterval = 10) -> Bool {
        waitUntil(timeout: timeout) { service.openRequests == 0 }
    }
}
