import Testing

@testable import PassSigning

/// The parts of `AppleWWDR` that need no certificate (the generations of real chains are checked by the verifier's
/// chain tests).
@Suite("AppleWWDR")
struct AppleWWDRTests {
    @Test("distinguished-name parts with escaped commas")
    func nameParts() {
        let parts = NameParts("C=US, O=Example\\, Inc., OU=G4, CN=Apple Worldwide Developer Relations")
        #expect(parts["O"] == "Example, Inc.")
        #expect(parts["OU"] == "G4")
        #expect(parts["CN"] == "Apple Worldwide Developer Relations")
        #expect(parts["L"] == nil)
    }
}
