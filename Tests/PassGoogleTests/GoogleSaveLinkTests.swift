import Foundation
import PassGoogle
import PassMintTestSupport
import PassModel
import Synchronization
import Testing

/// The 1,800-character decision: the class travels in the link while both fit; else it is inserted through the
/// API (or the link is refused offline), and an object too long alone is inserted and referenced.
@Suite("Google save links: what the link carries")
struct GoogleSaveLinkTests {
    /// Records what the link maker asks to insert; stands in for part B's Wallet API client.
    final class RecordingInserter: GoogleResourceInserter {
        let classes = Mutex<[String]>([])
        let objects = Mutex<[String]>([])
        func insertClass(_ pass: GooglePass) throws(GoogleError) { classes.withLock { $0.append(pass.classID) } }
        func insertObject(_ pass: GooglePass) throws(GoogleError) { objects.withLock { $0.append(pass.objectID) } }
    }

    /// A store card whose class carries `classModules` back fields of 60 characters each (the template's own
    /// text) and whose object carries the member's note.
    static func template(classModules: Int) throws -> MappedTemplate {
        var back: [JSONValue] = []
        for i in 0..<classModules {
            back.append(
                ["key": .string("terms\(i)"), "label": "TERMS", "value": .string(String(repeating: "t", count: 60))])
        }
        back.append(["key": "note", "label": "NOTE", "value": "{{note}}"])
        return try MappedTemplate(
            MappedTemplate.passJSON([
                "storeCard": [
                    "secondaryFields": [["key": "member", "label": "MEMBER", "value": "{{name}}"]],
                    "backFields": .array(back),
                ]
            ]))
    }

    func input(_ t: MappedTemplate, note: String) throws -> GoogleMappingInput {
        let resolved = try t.template.resolve(["name": "Ada", "note": note])
        let rendered = try t.template.render(
            resolved,
            context: .init(
                serialNumber: "SN-1", passTypeIdentifier: "pass.com.example.unit", teamIdentifier: "ABCDE12345"))
        return GoogleMappingInput(passJSON: rendered.passJSON, files: rendered.files, record: resolved.values)
    }

    func identity(_ dir: TempDir) throws -> GoogleIdentity {
        try GoogleIdentity.load(
            keyPath: try GoogleWalletSupport.makeKeyFile(in: dir), issuerID: MappedTemplate.issuerID, environment: [:])
    }

    /// The payload's member names, read back from the JWT's middle part.
    func payloadKeys(_ link: GoogleSaveLink) throws -> Set<String> {
        let parts = link.jwt.split(separator: ".")
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        let data = try #require(Data(base64Encoded: text))
        let claims = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let payload = try #require(claims["payload"] as? [String: Any])
        return Set(payload.keys)
    }

    @Test("base64url without padding, as RFC 4648 §5 and Foundation's base64 agree, for every tail length")
    func base64URL() {
        var bytes: [UInt8] = []
        for length in 0..<64 {
            let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(GoogleJWT.base64URL(bytes) == expected, "\(length) bytes")
            bytes.append(UInt8(truncatingIfNeeded: length &* 151 &+ 7))
        }
        #expect(GoogleJWT.base64URL([0xFB, 0xFF, 0xBF]) == "-_-_")
    }

    @Test("a short pass: the link carries class and object, and nothing is inserted")
    func short() throws {
        let dir = try TempDir()
        let t = try Self.template(classModules: 0)
        let inserter = RecordingInserter()
        let links = GoogleSaveLinks(mapping: t.mapping, identity: try identity(dir), inserter: inserter)
        let made = try links.link(for: try input(t, note: "hi"), issuedAt: 1_800_000_000)
        #expect(made.link.content == .classAndObject)
        #expect(made.link.jwt.utf8.count <= GoogleSaveLink.maxJWTLength)
        #expect(made.link.url == GoogleSaveLink.prefix + made.link.jwt)
        #expect(try payloadKeys(made.link) == ["loyaltyClasses", "loyaltyObjects"])
        #expect(inserter.classes.withLock { $0 }.isEmpty)
    }

    @Test("over 1,800 with the class: offline it is refused with what to do; with the API the class goes first")
    func classTooLong() throws {
        let dir = try TempDir()
        let t = try Self.template(classModules: 12)
        let identity = try identity(dir)
        let offline = GoogleSaveLinks(mapping: t.mapping, identity: identity)
        let error = try #require(
            throws: GoogleError.self, performing: { try offline.link(for: try input(t, note: "hi"), issuedAt: 1) })
        guard case .linkNeedsInsert(let length, let limit, let resource) = error else {
            Issue.record("expected linkNeedsInsert, got \(error)")
            return
        }
        #expect(length > 1_800 && limit == 1_800 && resource == .class)
        #expect(error.description.contains("inserted through the Google Wallet API, which needs the network"))

        let inserter = RecordingInserter()
        let online = GoogleSaveLinks(mapping: t.mapping, identity: identity, inserter: inserter)
        let first = try online.link(for: try input(t, note: "hi"), issuedAt: 1)
        let second = try online.link(for: try input(t, note: "there"), issuedAt: 1)
        #expect(first.link.content == .object && second.link.content == .object)
        #expect(try payloadKeys(first.link) == ["loyaltyObjects"])
        #expect(inserter.classes.withLock { $0 } == [first.pass.classID], "the class is inserted once")
        #expect(inserter.objects.withLock { $0 }.isEmpty)

        let published = GoogleSaveLinks(mapping: t.mapping, identity: identity, classesAtGoogle: true)
        #expect(try published.link(for: try input(t, note: "hi"), issuedAt: 1).link.content == .object)
    }

    @Test("an object over 1,800 alone: offline refused; with the API inserted and linked by reference")
    func objectTooLong() throws {
        let dir = try TempDir()
        let t = try Self.template(classModules: 0)
        let identity = try identity(dir)
        let note = String(repeating: "n", count: 1_600)
        let offline = GoogleSaveLinks(mapping: t.mapping, identity: identity, classesAtGoogle: true)
        #expect {
            try offline.link(for: try input(t, note: note), issuedAt: 1)
        } throws: { error in
            guard case .linkNeedsInsert(_, _, .object) = error as? GoogleError else { return false }
            return true
        }
        let inserter = RecordingInserter()
        let online = GoogleSaveLinks(mapping: t.mapping, identity: identity, inserter: inserter, classesAtGoogle: true)
        let made = try online.link(for: try input(t, note: note), issuedAt: 1)
        #expect(made.link.content == .objectReference)
        #expect(made.link.jwt.utf8.count <= GoogleSaveLink.maxJWTLength)
        #expect(inserter.objects.withLock { $0 } == [made.pass.objectID])
    }
}
