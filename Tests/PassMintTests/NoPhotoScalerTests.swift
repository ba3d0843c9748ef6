import Foundation
import PassMint
import PassMintTestSupport
import Testing

/// The `PassMint` product links no imaging library: an issuer made without a scaler issues passes as before and
/// refuses a record that names a photo, as the machine's problem (PassPhotos' `PhotoScaler` does the scaling).
@Suite("Issuing without an image scaler")
struct NoPhotoScalerTests {
    static let template = PackagePaths.template("status")

    @Test("a record naming a photo fails with PhotoError.scalerUnavailable, an environment error naming the file")
    func photoRefused() throws {
        let issuer = try PassFactory.issuer(
            templateDirectory: Self.template, identity: IdentityOptions(defaultDirectory: DevIdentity.directory))
        #expect(throws: PassMintError.photo(.scalerUnavailable(file: "ada.jpg"))) {
            try issuer.issue(IssueRequest(record: ["image.thumbnail": "ada.jpg"], serialNumber: "NO-SCALER-1"))
        }
        do {
            _ = try issuer.issue(IssueRequest(record: ["photo": "ada.jpg"], serialNumber: "NO-SCALER-2"))
            Issue.record("a photo was issued without a scaler")
        } catch {
            #expect(error.category == .environment)
            #expect(error.description.contains("ada.jpg"))
        }
    }

    @Test("a record without a photo is issued")
    func withoutPhoto() throws {
        let issuer = try PassFactory.issuer(
            templateDirectory: Self.template, identity: IdentityOptions(defaultDirectory: DevIdentity.directory))
        let pass = try issuer.issue(IssueRequest(record: ["memberName": "Ada"], serialNumber: "NO-SCALER-3"))
        #expect(PassVerifier.verify(archive: pass.archive, name: "no-scaler.pkpass").valid)
    }
}
