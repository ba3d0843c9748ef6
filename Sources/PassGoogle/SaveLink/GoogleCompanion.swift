import Foundation
import PassMint
import PassModel

/// Google Wallet as a batch's companion: each issued pass gets its save link in the report (`googleSaveUrl`) and
/// its class and object kept with it in the store (`google`, see `GooglePass.storedJSON`).
public struct GoogleCompanion: PassCompanion {
    /// The report member with the link.
    public static let reportMember = "googleSaveUrl"
    /// The name the class and object are stored under.
    public static let storedName = "google"

    public let links: GoogleSaveLinks

    public init(links: GoogleSaveLinks) {
        self.links = links
    }

    public func render(_ pass: CompanionInput) throws(PassMintError) -> CompanionOutput {
        do {
            let made = try links.link(
                for: GoogleMappingInput(
                    passJSON: pass.passJSON, files: pass.files, record: pass.record, pass: pass.pass),
                issuedAt: Int64(Date().timeIntervalSince1970))
            return CompanionOutput(
                reportMembers: [Self.reportMember: .string(made.link.url)],
                stored: [Self.storedName: made.pass.storedJSON])
        } catch {
            throw .companion(error)
        }
    }
}

extension GoogleError: CompanionFailure {}

extension GooglePass {
    /// What the store keeps with the pass: `{"kind", "classId", "objectId", "class", "object"}`.
    public var storedJSON: JSONValue {
        [
            "kind": .string(kind.rawValue), "classId": .string(classID), "objectId": .string(objectID),
            "class": classJSON, "object": objectJSON,
        ]
    }

    /// A pass read back from `storedJSON`; nil when the JSON is not one.
    public init?(stored: JSONValue) {
        guard let kind = stored["kind"]?.stringValue.flatMap(GoogleKind.init(rawValue:)),
            let classID = stored["classId"]?.stringValue, let objectID = stored["objectId"]?.stringValue,
            let klass = stored["class"], klass.objectValue != nil, let object = stored["object"],
            object.objectValue != nil
        else { return nil }
        self.init(
            kind: kind, classID: classID, classJSON: klass, objectID: objectID, objectJSON: object, gaps: [])
    }
}
