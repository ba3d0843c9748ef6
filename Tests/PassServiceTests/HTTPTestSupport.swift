import Foundation
import Synchronization
import Testing

@testable import PassService

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
    static let adminToken = "admin-secret-0123456789"

    init(
        configuration: ServiceConfiguration = ServiceConfiguration(host: "127.0.0.1", port: 0),
        environment: [String: String] = ["PASSMINT_ADMIN_TOKEN": LiveService.adminToken],
        recordValidator: @escaping RecordValidator = WalletService.mergeRecord,
        tokenSigner: TokenSigner? = nil
    ) throws {
        fixture = try StoreFixture(clock: TestClock(Date()))
        service = try WalletService(
            configuration: configuration, store: fixture.store, renderer: renderer,
            recordValidator: recordValidator, tokenSigner: tokenSigner, environment: environment)
        try service.start()
        port = try #require(service.boundPort)
    }

    deinit { service.stop() }

    var store: SQLiteStore { fixture.store }

    /// Runs curl; `body` is sent as the request body.
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8]? = nil,
        expectContinue: Bool = false
    ) throws -> CurlResponse {
        let bodyFile = fixture.directory.path("response-\(UUID().uuidString)")
        var arguments = ["-sS", "-o", bodyFile, "-D", "-", "-X", method]
        if !expectContinue { arguments += ["-H", "Expect:"] }
        for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
        if method == "HEAD" { arguments = arguments.filter { $0 != "-X" && $0 != "HEAD" } + ["-I"] }
        var input: FileHandle?
        if let body {
            let requestFile = fixture.directory.path("request-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: requestFile, contents: Data(body))
            arguments += ["--data-binary", "@\(requestFile)"]
            input = nil
        }
        arguments.append("http://127.0.0.1:\(port)\(path)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let responseBody = (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))).map(Array.init) ?? []
        try? FileManager.default.removeItem(atPath: bodyFile)
        return Self.parse(String(decoding: data, as: UTF8.self), body: responseBody)
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
