import Testing

@testable import PassArchive

@Suite("Compression")
struct CompressionTests {
    @Test(
        "already-compressed files are stored",
        arguments: ["icon.png", "strip@2x.png", "en.lproj/logo.PNG", "photo.jpg", "inner.pkpass"])
    func stored(name: String) {
        #expect(Compression.forEntry(name) == .store)
    }

    @Test(
        "text and everything else is deflated",
        arguments: ["pass.json", "manifest.json", "signature", "de.lproj/pass.strings", ".png", "png", "a.png/x"])
    func deflated(name: String) {
        #expect(Compression.forEntry(name) == .deflate)
    }
}
