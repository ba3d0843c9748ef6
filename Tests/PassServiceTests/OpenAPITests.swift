import Foundation
import Testing
import PassModel
@testable import PassHTTP
@testable import PassService
import PassMintTestSupport

/// `Docs/openapi.json` is what integrators build against; these tests hold it to the router's table.
@Suite("OpenAPI document")
struct OpenAPITests {
    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    private func document() throws -> [String: JSONValue] {
        let url = PackagePaths.root.appendingPathComponent("Docs/openapi.json")
        let bytes = Array(try Data(contentsOf: url))
        let parsed = try JSONReader.parse(bytes, file: "Docs/openapi.json")
        #expect(parsed.isStrict, "\(parsed.leniencies)")
        return try #require(parsed.value.objectValue)
    }

    private func routeTable() throws -> [Route] {
        let f = try StoreFixture()
        return try WalletService(configuration: .init(), store: f.store, renderer: TestRenderer()).router.routes
    }

    /// `/v1/passes/:passType/:serial` → `/v1/passes/{passType}/{serial}`.
    private func template(_ pattern: String) -> String {
        pattern.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
    }

    @Test("every route of the table is in the file with its method and path template, and nothing else is")
    func matchesRouter() throws {
        let document = try document()
        #expect(document["openapi"]?.stringValue?.hasPrefix("3.0.") == true)
        let paths = try #require(document["paths"]?.objectValue)
        var documented = Set<String>()
        for (path, item) in paths {
            for method in (item.objectValue ?? [:]).keys where Self.methods.contains(method) {
                documented.insert("\(method.uppercased()) \(path)")
            }
        }
        let routes = Set(try routeTable().map { "\($0.method) \(template($0.pattern))" })
        #expect(routes.subtracting(documented).isEmpty, "routes missing from Docs/openapi.json")
        #expect(
            documented.subtracting(routes).isEmpty, "operations in Docs/openapi.json that the router does not serve")
    }

    @Test("each operation declares exactly its path's parameters, security that exists, an id and responses")
    func operationsAreComplete() throws {
        let document = try document()
        let components = try #require(document["components"]?.objectValue)
        let schemes = Set(try #require(components["securitySchemes"]?.objectValue).keys)
        #expect(schemes == ["ApplePass", "AdminBearer"])
        var operationIDs: [String] = []
        for (path, item) in try #require(document["paths"]?.objectValue) {
            let item = try #require(item.objectValue)
            let names = Set(
                path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) })
            for (method, operation) in item where Self.methods.contains(method) {
                let operation = try #require(operation.objectValue)
                let declared = try
                    ((item["parameters"]?.arrayValue ?? []) + (operation["parameters"]?.arrayValue ?? []))
                    .map { try resolve($0, in: document) }
                    .filter { $0["in"] == "path" }
                #expect(Set(declared.compactMap { $0["name"]?.stringValue }) == names, "\(method) \(path)")
                #expect(
                    declared.allSatisfy { $0["required"] == true }, "\(method) \(path): path parameters are required")
                let security = try #require(
                    operation["security"]?.arrayValue, "\(method) \(path) says nothing of security")
                for requirement in security {
                    #expect(Set((requirement.objectValue ?? [:]).keys).isSubset(of: schemes), "\(method) \(path)")
                }
                let responses = operation["responses"]?.objectValue ?? [:]
                #expect(responses.count > 0, "\(method) \(path) has no responses")
                operationIDs.append(try #require(operation["operationId"]?.stringValue, "\(method) \(path)"))
            }
        }
        #expect(Set(operationIDs).count == operationIDs.count, "operationIds repeat: \(operationIDs.sorted())")
    }

    @Test("the Wallet routes that take a pass's token use the ApplePass scheme, the admin routes the bearer token")
    func securityPerRoute() throws {
        let paths = try #require(try document()["paths"]?.objectValue)
        func schemes(_ method: String, _ path: String) -> [String] {
            (paths[path]?[method]?["security"]?.arrayValue ?? []).flatMap { $0.objectValue?.keys.sorted() ?? [] }
        }
        let registration = "/v1/devices/{device}/registrations/{passType}/{serial}"
        #expect(schemes("post", registration) == ["ApplePass"])
        #expect(schemes("delete", registration) == ["ApplePass"])
        #expect(schemes("get", "/v1/passes/{passType}/{serial}") == ["ApplePass"])
        #expect(schemes("get", "/admin/v1/passes/{serial}") == ["AdminBearer"])
        #expect(schemes("patch", "/admin/v1/passes/{serial}") == ["AdminBearer"])
        #expect(schemes("get", "/healthz").isEmpty)
    }

    @Test("every $ref points at something the file defines")
    func referencesResolve() throws {
        let document = try document()
        var references: [String] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .object(let members):
                if let reference = members["$ref"]?.stringValue { references.append(reference) }
                members.values.forEach(collect)
            case .array(let items): items.forEach(collect)
            default: break
            }
        }
        collect(.object(document))
        #expect(!references.isEmpty)
        for reference in references {
            #expect(throws: Never.self, "\(reference)") { _ = try resolve(["$ref": .string(reference)], in: document) }
        }
    }

    /// The object a `$ref` names (`#/components/parameters/serial`), or the value itself when it is no reference.
    private func resolve(_ value: JSONValue, in document: [String: JSONValue]) throws -> [String: JSONValue] {
        guard let reference = value["$ref"]?.stringValue else { return try #require(value.objectValue) }
        #expect(reference.hasPrefix("#/"))
        var current = JSONValue.object(document)
        for key in reference.dropFirst(2).split(separator: "/") {
            current = try #require(current[String(key)], "\(reference) does not resolve")
        }
        return try #require(current.objectValue, "\(reference) is not an object")
    }
}
