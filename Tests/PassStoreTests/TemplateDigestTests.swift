import Foundation
import Testing
@testable import PassTemplates
@testable import PassMint
@testable import PassStore
import PassMintTestSupport

@Suite("Template digests and references")
struct TemplateDigestTests {
    @Test("the digest of no files is the SHA-256 of the empty listing")
    func emptyListing() {
        #expect(TemplateDigest.digest([:]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("the same content gives the same digest whatever the insertion order")
    func orderIndependent() {
        var forward: [String: [UInt8]] = [:]
        var backward: [String: [UInt8]] = [:]
        let names = (0..<50).map { "file\($0).png" }
        for name in names { forward[name] = Array(name.utf8) }
        for name in names.reversed() { backward[name] = Array(name.utf8) }
        #expect(TemplateDigest.digest(forward) == TemplateDigest.digest(backward))
    }

    @Test("moving bytes between files or renaming a file changes the digest")
    func unambiguous() {
        let a = TemplateDigest.digest(["a": Array("xy".utf8), "b": []])
        let b = TemplateDigest.digest(["a": Array("x".utf8), "b": Array("y".utf8)])
        let c = TemplateDigest.digest(["a": Array("xy".utf8), "c": []])
        #expect(Set([a, b, c]).count == 3)
    }

    @Test("a folder read twice, with new modification times in between, has one digest")
    func folderStable() throws {
        let dir = try TempDir()
        let template = dir.path("event")
        try FileManager.default.copyItem(atPath: PackagePaths.template("event"), toPath: template)
        let first = TemplateDigest.digest(try PassFactory.templateSource(template).files)
        for name in try FileManager.default.contentsOfDirectory(atPath: template) {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: template + "/" + name)
        }
        // A junk file (skipped by every template reader) does not make a new version either.
        try Data("x".utf8).write(to: URL(fileURLWithPath: template + "/.DS_Store"))
        #expect(TemplateDigest.digest(try PassFactory.templateSource(template).files) == first)
        try Data("changed".utf8).write(to: URL(fileURLWithPath: template + "/extra.txt"))
        #expect(TemplateDigest.digest(try PassFactory.templateSource(template).files) != first)
    }

    @Test("references round-trip; folder paths and malformed text are not references")
    func references() throws {
        let digest = String(repeating: "0f", count: 32)
        let reference = try TemplateReference(name: "status", digest: digest)
        #expect(reference.description == "passmint-template:status@" + digest)
        #expect(TemplateReference(reference.description) == reference)
        #expect(TemplateReference("/srv/templates/status") == nil)
        #expect(TemplateReference("passmint-template:status@abc") == nil)
        #expect(TemplateReference("passmint-template:@" + digest) == nil)
        #expect(throws: StoreError.self) { try TemplateReference(name: "a/b", digest: digest) }
        #expect(throws: StoreError.self) { try TemplateReference(name: "", digest: digest) }
        #expect(TemplateReference.name(forPath: "Templates/status/") == "status")
        #expect(TemplateReference.name(forPath: "x/club.pkpasstemplate") == "club")
        #expect(TemplateReference.name(forPath: "/tmp/event.zip") == "event")
    }
}
