import Foundation
import FuzzSupport
import PassArchive

@testable import PassHTTP
@testable import PassService
@testable import PassStore

/// Input: one request as `METHOD TARGET` on the first line, header lines `Name: value`, an empty line, the
/// body (LF or CRLF). It goes through what the live server runs after libmicrohttpd has split the head: the
/// `RequestScreen` checks of target and headers, the body limit, then routing and the handlers
/// (`WalletService.respond(to:)`) against a SQLite store holding one pass. No socket: libmicrohttpd's own
/// parsing is C and is not ours to fuzz.
///
/// `@testable`: the screen is internal to PassHTTP (the MHD adapter is its only caller) and the service's types are
/// `package`, and the fuzz build passes `-enable-testing`, so no API exists only for this target.
@main
enum FuzzHTTP {
    static func main() { FuzzDriver.run(fuzzHTTP) }
}

private let limits = RequestLimits()
private let adminToken = "fuzz-admin-token-0123456789abcdef"
/// The pass the seeds talk about (make-seeds.py uses the same serial, pass type and token).
private let storedPass = StoredPass(
    serialNumber: "FUZZ-0001", passTypeIdentifier: "pass.com.example.fuzz", templatePath: "Templates/loyalty",
    record: ["tier": "Silver", "points": "10"], authenticationToken: "0123456789abcdef0123456789abcdef")

/// The service and its store, renewed every `inputsPerStore` inputs. State carried between inputs (registrations,
/// logs, queued pushes) is what a running server has too, but an admin PATCH queues a push per registration, so
/// one store for a whole run would make each input slower than the last.
private struct ServiceGeneration {
    static let inputsPerStore = 5_000
    let service: WalletService
    let folder: String
    var inputs = 0

    init(number: Int) {
        folder = scratch.path + "/store-\(number)"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let store = try SQLiteStore(path: folder + "/passes.sqlite")
            try store.insertPasses([storedPass])
            service = try WalletService(
                configuration: ServiceConfiguration(limits: limits), store: store, renderer: FixedRenderer(),
                personalization: PersonalizationSigning(
                    isPersonalizable: { _ in true }, sign: { Array($0.reversed()) }),
                environment: ["PASSMINT_ADMIN_TOKEN": adminToken])
        } catch {
            fatalError("fuzz harness: cannot set up the service: \(error)")
        }
    }
}

private let scratch = ScratchDirectory(name: "http")
private nonisolated(unsafe) var generation = ServiceGeneration(number: 0)  // libFuzzer calls in from one thread
private nonisolated(unsafe) var generations = 0

/// The service to answer the next input with.
private func currentService() -> WalletService {
    if generation.inputs == ServiceGeneration.inputsPerStore {
        let old = generation.folder
        generations += 1
        generation = ServiceGeneration(number: generations)  // the old store is closed as it is released
        try? FileManager.default.removeItem(atPath: old)
    }
    generation.inputs += 1
    return generation.service
}

/// Renders any stored pass as fixed bytes: rendering and signing are other targets' business.
private struct FixedRenderer: PassRenderer {
    // Spelled out: the protocol's default implementations are `package`, out of reach of a conformance here.
    var identityGeneration: Int { 0 }
    func render(_ pass: StoredPass) throws -> [UInt8] { Array("PKPASS \(pass.serialNumber) \(pass.tag)".utf8) }
    func renderSigned(_ pass: StoredPass) throws -> (body: ArchiveParts, identityGeneration: Int) {
        (ArchiveParts(try render(pass)), 0)
    }
}

/// `PASSMINT_FUZZ_TRACE=1`: print each answer's status and body, to see what the seeds reach.
private let trace = ProcessInfo.processInfo.environment["PASSMINT_FUZZ_TRACE"] == "1"

private func fuzzHTTP(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let response = respond(RawRequest(FuzzInput(start, count).bytes))
    if trace { print(response.status, String(decoding: response.body.array.prefix(200), as: UTF8.self)) }
    require((100...599).contains(response.status), "status \(response.status)")
    // A 500 means a handler failed on something it should have refused with a 4xx.
    require(response.status != 500, "500 for a request: \(String(decoding: response.body.array, as: UTF8.self))")
    return 0
}

/// What `mhdScreen` and the access handler do with a head and body, minus libmicrohttpd.
private func respond(_ raw: RawRequest) -> Response {
    do throws(HTTPError) {
        // libmicrohttpd stops a target at a raw NUL; the adapter then refuses it (`isWholeTarget`).
        guard !raw.target.contains(0) else { throw .badRequest("the request target contains a NUL byte") }
        let (path, query) = try RequestScreen.target(raw.target, limits: limits)
        let method = HTTPMethod(String(decoding: raw.method, as: UTF8.self))
        let headers = try RequestScreen.headers(raw.fields, limits: limits, bodyLimit: .max)
        let service = currentService()
        let head = RequestHead(method: method, path: path, headers: headers)
        let bodyLimit: Int
        switch service.headGuard.decide(head) {
        case .refuse(let error): throw error
        case .read(let limit): bodyLimit = limit
        }
        if let length = RequestScreen.declaredLength(headers), length > bodyLimit {
            throw RequestScreen.bodyTooLarge(bodyLimit)
        }
        guard raw.body.count <= bodyLimit else { throw RequestScreen.bodyTooLarge(bodyLimit) }
        return service.respond(
            to: Request(method: method, path: path, query: query, headers: headers, body: raw.body))
    } catch {
        return error.response
    }
}

/// The parts libmicrohttpd hands over: method, raw target, header fields as bytes, body.
private struct RawRequest {
    var method: [UInt8] = []
    var target: [UInt8] = []
    var fields: [RequestScreen.RawField] = []
    var body: [UInt8] = []

    init(_ bytes: [UInt8]) {
        // The head ends at the first empty line (or with the input); everything after it is the body, as sent.
        var lines: [ArraySlice<UInt8>] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: 0x0A) ?? rest.endIndex
            var line = rest[..<newline]
            rest = newline < rest.endIndex ? rest[(newline + 1)...] : []
            if line.last == 0x0D { line = line.dropLast() }
            if line.isEmpty { break }
            lines.append(line)
        }
        body = Array(rest)
        guard let first = lines.first else { return }
        let space = first.firstIndex(of: 0x20) ?? first.endIndex
        method = Array(first[..<space])
        target = space < first.endIndex ? Array(first[(space + 1)...]) : []
        for line in lines.dropFirst() {
            // libmicrohttpd drops the whitespace around a value; a line without a colon is a name alone.
            let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
            var value = colon < line.endIndex ? line[(colon + 1)...] : []
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            fields.append(RequestScreen.RawField(name: Array(line[..<colon]), value: Array(value)))
        }
    }
}
