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

@Suite("ArchiveEntry: names")
struct ArchiveEntryNameTests {
    @Test(
        "plain relative paths are accepted, dot-only components other than . and .. included",
        arguments: [
            "pass.json", "en.lproj/pass.strings", ".hidden", "a..b", "...", "a/.../b", "strip@2x.png", "é/ü.png",
        ])
    func plain(name: String) throws {
        try ArchiveEntry.validate(name: name)
    }

    @Test(
        "a bad name is refused with what is wrong with it",
        arguments: [
            ("", "the name is empty"), ("/abs.json", "it starts with '/'"),
            ("dir/", "it ends with '/'; directory entries are not written"), ("a\\b", "it contains '\\'; use '/'"),
            ("a\u{0}b", "it contains a NUL byte"), ("a//b", "it contains '//'"),
            (".", "it contains a '.' path component"), ("./x", "it contains a '.' path component"),
            ("a/..", "it contains a '..' path component"), ("a/../b", "it contains a '..' path component"),
        ])
    func refused(name: String, reason: String) {
        #expect(throws: ArchiveError.invalidEntryName(entry: name, reason: reason)) {
            try ArchiveEntry.validate(name: name)
        }
    }
}
