import Foundation
import Testing
import PassModel
@testable import PassArchive
@testable import PassMint
@testable import PassStore
@testable import PassOperations
import PassMintTestSupport

@Suite("Rendering versioned templates from the store")
struct TemplateRendererVersionTests {
    /// A copy of Templates/event that the test may edit.
    static func eventCopy(_ dir: TempDir) throws -> String {
        let path = dir.path("event")
        try FileManager.default.copyItem(atPath: PackagePaths.template("event"), toPath: path)
        return path
    }

    static func backgroundColor(_ archive: [UInt8]) throws -> String? {
        let reader = try ArchiveReader(bytes: archive, name: "pass.pkpass")
        let passJSON = try #require(reader.files.first { $0.name == "pass.json" })
        let object = try JSONSerialization.jsonObject(with: Data(passJSON.bytes)) as? [String: Any]
        return object?["backgroundColor"] as? String
    }

    static func setBackground(_ template: String, _ colour: String) throws {
        let path = template + "/pass.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("rgb(34, 16, 58)"))
        try text.replacingOccurrences(of: "rgb(34, 16, 58)", with: colour).write(
            toFile: path, atomically: true, encoding: .utf8)
    }

    static func pass(_ serial: String, template: String) -> StoredPass {
        StoredPass(
            serialNumber: serial, passTypeIdentifier: DevIdentity.passTypeIdentifier, templatePath: template,
            record: [:], authenticationToken: "token-\(serial)-0123456789abcdef0123456789abcdef",
            webServiceURL: "https://passes.example.com")
    }

    @Test("editing or deleting the folder after issuing changes nothing served; a folder-path pass does change")
    func diskEditsChangeNothing() throws {
        let dir = try TempDir()
        let template = try Self.eventCopy(dir)
        let store = try SQLiteStore(path: dir.path("store.sqlite"))
        let issuance = try TemplateIssuance.prepare(store: store, templatePath: template, name: nil)
        #expect(issuance.reference.name == "event")
        #expect(issuance.warnings.isEmpty)
        #expect(try store.currentTemplate(name: "event")?.digest == issuance.reference.digest)
        try store.insertPasses([
            Self.pass("V1", template: issuance.reference.description), Self.pass("P1", template: template),
        ])
        let before = TemplateRenderer(identity: DevIdentity.identity, templates: store)
        let versioned = try #require(try store.pass(serial: "V1"))
        let legacy = try #require(try store.pass(serial: "P1"))
        #expect(try Self.backgroundColor(before.render(versioned)) == "rgb(34, 16, 58)")
        #expect(try Self.backgroundColor(before.render(legacy)) == "rgb(34, 16, 58)")

        try Self.setBackground(template, "rgb(200, 10, 10)")
        let after = TemplateRenderer(identity: DevIdentity.identity, templates: store)
        #expect(try Self.backgroundColor(after.render(versioned)) == "rgb(34, 16, 58)")
        // The old behaviour, kept for passes an older PassMint stored: the folder is read as it is now.
        #expect(try Self.backgroundColor(after.render(legacy)) == "rgb(200, 10, 10)")

        try FileManager.default.removeItem(atPath: template)
        let gone = TemplateRenderer(identity: DevIdentity.identity, templates: store)
        #expect(try Self.backgroundColor(gone.render(versioned)) == "rgb(34, 16, 58)")
    }

    @Test("issuing an edited folder stores a second version and warns that it is not the current one")
    func secondVersionWarns() throws {
        let dir = try TempDir()
        let template = try Self.eventCopy(dir)
        let store = try SQLiteStore(path: dir.path("store.sqlite"))
        let first = try TemplateIssuance.prepare(store: store, templatePath: template, name: "tickets")
        let again = try TemplateIssuance.prepare(store: store, templatePath: template, name: "tickets")
        #expect(again.reference == first.reference)
        #expect(again.warnings.isEmpty)
        try Self.setBackground(template, "rgb(1, 1, 1)")
        let second = try TemplateIssuance.prepare(store: store, templatePath: template, name: "tickets")
        #expect(second.reference.digest != first.reference.digest)
        #expect(second.warnings.count == 1)
        #expect(second.warnings.first?.contains("not the current version") == true)
        #expect(try store.currentTemplate(name: "tickets")?.digest == first.reference.digest)
        #expect(try store.templateVersion(digest: second.reference.digest) != nil)
    }

    @Test("a pass naming a version the store lacks fails with what to do; without a store it says so")
    func missingVersion() throws {
        let dir = try TempDir()
        let store = try SQLiteStore(path: dir.path("store.sqlite"))
        let reference = "passmint-template:event@" + String(repeating: "cd", count: 32)
        let renderer = TemplateRenderer(identity: DevIdentity.identity, templates: store)
        #expect(throws: OperationError.templateVersionMissing(reference: reference)) {
            _ = try renderer.render(Self.pass("X", template: reference))
        }
        do {
            _ = try renderer.render(Self.pass("X", template: reference))
        } catch {
            #expect("\(error)".contains("holds no template version \(reference)"))
        }
        let storeless = TemplateRenderer(identity: DevIdentity.identity)
        do {
            _ = try storeless.render(Self.pass("X", template: reference))
            Issue.record("rendered without a store")
        } catch {
            #expect("\(error)".contains("no store was given"))
        }
    }

    @Test("a Pass Designer folder known only by its .pkpasstemplate name renders from the store by field key")
    func designerByName() throws {
        let dir = try TempDir()
        let folder = dir.path("club.pkpasstemplate")
        try FileManager.default.copyItem(atPath: PackagePaths.template("designer-club.pkpasstemplate"), toPath: folder)
        try FileManager.default.removeItem(atPath: folder + "/tooling.json")
        let store = try SQLiteStore(path: dir.path("store.sqlite"))
        let issuance = try TemplateIssuance.prepare(store: store, templatePath: folder, name: nil)
        #expect(issuance.reference.name == "club")
        var pass = Self.pass("D1", template: issuance.reference.description)
        pass.record = ["MEMBER_NAME": "Ada Lovelace"]
        try store.insertPasses([pass])
        let renderer = TemplateRenderer(identity: DevIdentity.identity, templates: store)
        let archive = try renderer.render(try #require(try store.pass(serial: "D1")))
        let reader = try ArchiveReader(bytes: archive, name: "pass.pkpass")
        let passJSON = try #require(reader.files.first { $0.name == "pass.json" })
        #expect(String(decoding: passJSON.bytes, as: UTF8.self).contains("Ada Lovelace"))
    }

    @Test("a folder that is no template is refused before anything is stored")
    func brokenFolderStoresNothing() throws {
        let dir = try TempDir()
        let template = try Self.eventCopy(dir)
        try Data("{\"formatVersion\": 1,".utf8).write(to: URL(fileURLWithPath: template + "/pass.json"))
        let store = try SQLiteStore(path: dir.path("store.sqlite"))
        #expect(throws: OperationError.self) {
            _ = try TemplateIssuance.prepare(store: store, templatePath: template, name: nil)
        }
        #expect(try store.publishedTemplates().isEmpty)
        #expect(
            try store.templateVersion(digest: TemplateDigest.digest(PassFactory.templateSource(template).files)) == nil)
    }
}
