import Testing

@testable import PassArchive

@Suite("ArchiveEntry: junk names")
struct ArchiveEntryTests {
    @Test(
        "junk names (Finder and Explorer droppings) are recognised; pass files are not junk",
        arguments: [
            ("__MACOSX/._pass.json", true), ("__MACOSX/", true), (".DS_Store", true), ("en.lproj/.DS_Store", true),
            ("._icon.png", true), ("Thumbs.db", true), ("pass.json", false), ("en.lproj/pass.strings", false),
            ("icon@2x.png", false), ("signature", false), ("MACOSX.txt", false),
        ])
    func junk(name: String, isJunk: Bool) {
        #expect(ArchiveEntry.isJunk(name) == isJunk)
    }
}
