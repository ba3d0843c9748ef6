import Foundation
import Testing
@testable import PassStore
import PassMintTestSupport

@Suite("TemplateVersionStore (SQLite and PostgreSQL)")
struct TemplateVersionStoreTests {
    let files: [String: [UInt8]] = [
        "pass.json": Array(#"{"formatVersion": 1, "backgroundColor": "rgb(1, 2, 3)"}"#.utf8),
        "icon.png": [0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 255],
        "en.lproj/pass.strings": Array(#""a" = "b";"#.utf8),
    ]

    @Test("a version is stored once per digest and read back byte for byte", arguments: StoreBackend.all)
    func storeOnce(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let version = TemplateVersion(files: files, designer: true)
        #expect(try f.templates.templateVersion(digest: version.digest) == nil)
        #expect(try f.templates.storeTemplateVersion(version))
        #expect(try !f.templates.storeTemplateVersion(TemplateVersion(files: files, designer: true)))
        let read = try #require(try f.templates.templateVersion(digest: version.digest))
        #expect(read == version)
        #expect(read.files["icon.png"] == [0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 255])
        #expect(read.designer)
        // Another process sees it too, and finds the same content stored already.
        let other = try f.secondStore() as! any TemplateVersionStore
        #expect(try other.templateVersion(digest: version.digest) == version)
        #expect(try !other.storeTemplateVersion(version))
    }

    @Test("publishing sets the current version; issuing only sets an unpublished name", arguments: StoreBackend.all)
    func currentVersion(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let first = TemplateVersion(files: files)
        var edited = files
        edited["pass.json"] = Array(#"{"formatVersion": 1, "backgroundColor": "rgb(9, 9, 9)"}"#.utf8)
        let second = TemplateVersion(files: edited)
        #expect(first.digest != second.digest)
        _ = try f.templates.storeTemplateVersion(first)
        _ = try f.templates.storeTemplateVersion(second)
        #expect(try f.templates.currentTemplate(name: "event") == nil)
        #expect(try f.templates.publishTemplate(name: "event", digest: first.digest, onlyIfUnpublished: true))
        #expect(try !f.templates.publishTemplate(name: "event", digest: second.digest, onlyIfUnpublished: true))
        #expect(try f.templates.currentTemplate(name: "event")?.digest == first.digest)
        f.clock.advance(60)
        #expect(try f.templates.publishTemplate(name: "event", digest: second.digest, onlyIfUnpublished: false))
        let current = try #require(try f.templates.currentTemplate(name: "event"))
        #expect(current.digest == second.digest)
        #expect(current.publishedAt == f.clock.now)
        try f.templates.publishTemplate(name: "club", digest: first.digest, onlyIfUnpublished: false)
        #expect(try f.templates.publishedTemplates().map(\.name) == ["club", "event"])
    }

    @Test("usage counts passes and device registrations per stored template value", arguments: StoreBackend.all)
    func usage(backend: StoreBackend) throws {
        let f = try StoreFixture(backend)
        let reference = "passmint-template:event@" + String(repeating: "ab", count: 32)
        var passes = (0..<3).map { samplePass("E\($0)") }
        for i in passes.indices { passes[i].templatePath = reference }
        try f.store.insertPasses(passes + [samplePass("L0"), samplePass("L1")])
        _ = try f.store.register(
            device: "d1", passType: passes[0].passTypeIdentifier, serial: "E0", pushToken: "t1", tag: 1)
        _ = try f.store.register(
            device: "d2", passType: passes[0].passTypeIdentifier, serial: "E0", pushToken: "t2", tag: 1)
        _ = try f.store.register(
            device: "d1", passType: passes[0].passTypeIdentifier, serial: "L1", pushToken: "t1", tag: 1)
        let usage = try f.templates.templateUsage()
        #expect(
            usage == [
                TemplateUsage(template: "Templates/loyalty", passes: 2, registrations: 1),
                TemplateUsage(template: reference, passes: 3, registrations: 2),
            ])
    }
}
