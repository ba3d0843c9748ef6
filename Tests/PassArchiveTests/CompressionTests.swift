import Testing

@testable import PassArchive

@Suite("Compression")
struct CompressionTests {
    @Test(
        "already-compressed files are stored; text and everything else is deflated",
        arguments: [
            ("icon.png", Compression.store), ("strip@2x.png", .store), ("en.lproj/logo.PNG", .store),
            ("photo.jpg", .store), ("inner.pkpass", .store), ("signature", .store), ("pass.json", .deflate),
            ("manifest.json", .deflate), ("de.lproj/pass.strings", .deflate), (".png", .deflate), ("png", .deflate),
            ("a.png/x", .deflate), ("signature.json", .deflate),
        ])
    func forEntry(name: String, expected: Compression) {
        #expect(Compression.forEntry(name) == expected)
    }
}
