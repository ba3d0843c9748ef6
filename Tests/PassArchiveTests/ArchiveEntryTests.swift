import Testing

@testable import PassArchive

@Suite("Compression")
struct CompressionTests {
    @Test(
        "already-compressed files are stored",
        arguments: ["icon.png", "strip@2x.png", "en.lproj/logo.PNG", "photo.jpg", "inner.pkpass", "signature"])
    func stored(name: String) {
        #expect(Compression.forEntry(name) == .store)
    }

    @Test(
        "text and everything else is deflated",
        arguments: ["pass.json", "manifest.json", "de.lproj/pass.strings", ".png", "png", "a.png/x", "signature.json"])
    func deflated(name: String) {
        #expect(Compression.forEntry(name) == .deflate)
    }
}

@Suite("Entry names")
struct EntryNameTests {
    @Test(
        "junk names are recognised",
        arguments: ["__MACOSX/._pass.json", "__MACOSX/", ".DS_Store", "en.lproj/.DS_Store", "._icon.png", "Thumbs.db"])
    func junk(name: String) {
        #expect(ArchiveEntry.isJunk(name))
    }

    @Test(
        "pass files are not junk",
        arguments: ["pass.json", "en.lproj/pass.strings", "icon@2x.png", "signature", "MACOSX.txt"])
    func notJunk(name: String) {
        #expect(!ArchiveEntry.isJunk(name))
    }
}
