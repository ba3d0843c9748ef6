import PassArchive
import PassSigning

/// The readable files of a pass archive, keyed by entry name, after the structure checks.
struct PassFiles {
    /// Every readable file (not directory entries), first occurrence of each name.
    var files: [String: [UInt8]]
    /// Entries that exist but could not be read (already reported as `archive.unreadable`).
    var unreadable: Set<String> = []

    subscript(name: String) -> [UInt8]? { files[name] }

    /// The names that count as the pass's content: everything but manifest.json, signature and junk.
    var contentNames: [String] {
        files.keys.filter { $0 != "manifest.json" && $0 != "signature" && !Manifest.isJunk($0) }.sorted()
    }

    /// The `.lproj` folder of a name ("en.lproj/logo.png" → "en.lproj"), nil for root files.
    static func lproj(of name: String) -> String? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].hasSuffix(".lproj") else { return nil }
        return String(parts[0])
    }
}

/// Checks on the zip itself: readable entries, paths, junk files, folders.
enum ArchiveChecks {
    static func check(_ reader: ArchiveReader, into findings: inout Findings) -> PassFiles {
        var counts: [String: Int] = [:]
        for name in reader.entryNames { counts[name, default: 0] += 1 }
        for (name, count) in counts.sorted(by: { $0.key < $1.key }) where count > 1 {
            findings.error(
                VerifyCode.archiveDuplicateEntry,
                "'\(name)' is stored \(count) times; a pass holds each file once — rebuild the archive", path: name)
        }
        for error in reader.unreadableEntries {
            findings.error(VerifyCode.archiveUnreadable, error.description, path: entryName(of: error))
        }

        var files: [String: [UInt8]] = [:]
        for entry in reader.files { files[entry.name] = entry.bytes }

        var reportedJunkFolders = Set<String>()
        var nestedFolders: [String: [String]] = [:]
        for name in Set(reader.entryNames).sorted() {
            if let reason = badPathReason(name) {
                findings.error(
                    VerifyCode.archiveBadPath,
                    "entry name '\(name)' \(reason); Wallet expects plain '/'-separated paths at the root", path: name)
                continue
            }
            if Manifest.isJunk(name) {
                let folder = name.split(separator: "/").first.map(String.init) ?? name
                if folder == "__MACOSX" {
                    guard reportedJunkFolders.insert(folder).inserted else { continue }
                    findings.error(
                        VerifyCode.archiveJunkFile,
                        "the archive contains a __MACOSX/ folder (macOS Finder metadata); zip with "
                            + "`zip -X -r` from inside the pass folder, or build with passmint", path: "__MACOSX/")
                } else if !name.hasSuffix("/") {
                    findings.error(
                        VerifyCode.archiveJunkFile,
                        "'\(name)' is operating-system junk, not part of the pass; remove it and rebuild", path: name)
                }
                continue
            }
            let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let isDirectory = name.hasSuffix("/")
            let depth = parts.count - (isDirectory ? 1 : 0)
            if depth <= 1 { continue }
            if depth == 2, parts[0].hasSuffix(".lproj"), parts[0].count > ".lproj".count { continue }
            nestedFolders[parts[0], default: []].append(name)
        }
        reportNested(nestedFolders, rootHasPassJSON: files["pass.json"] != nil, into: &findings)
        let unreadable = Set(reader.entryNames.filter { !$0.hasSuffix("/") && files[$0] == nil })
        return PassFiles(files: files, unreadable: unreadable)
    }

    private static func reportNested(
        _ folders: [String: [String]], rootHasPassJSON: Bool,
        into findings: inout Findings
    ) {
        for (folder, names) in folders.sorted(by: { $0.key < $1.key }) {
            let files = names.filter { !$0.hasSuffix("/") }
            if !rootHasPassJSON, files.contains("\(folder)/pass.json") {
                findings.error(
                    VerifyCode.archiveNestedFolder,
                    "the pass is wrapped in a folder '\(folder)/'; zip the folder's contents, not the folder, "
                        + "so pass.json, manifest.json and signature sit at the root", path: "\(folder)/")
            } else if folder.hasSuffix(".lproj") {
                findings.error(
                    VerifyCode.archiveNestedFolder,
                    "'\(folder)/' contains sub-folders (\(files.prefix(3).joined(separator: ", "))); "
                        + "a .lproj folder holds only pass.strings and images", path: "\(folder)/")
            } else {
                let sample = files.prefix(3).joined(separator: ", ")
                findings.error(
                    VerifyCode.archiveNestedFolder,
                    "folder '\(folder)/' is not allowed (only <language>.lproj folders are)"
                        + (sample.isEmpty ? "" : ": \(sample)") + "; move its files to the root or remove them",
                    path: "\(folder)/")
            }
        }
    }

    static func badPathReason(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.contains(ArchiveReader.nulMark) { return "contains a NUL byte (shown as \(ArchiveReader.nulMark))" }
        if name.contains("\\") { return "contains '\\' (a Windows path separator)" }
        if name.hasPrefix("/") { return "is absolute (starts with '/')" }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        if parts.contains(where: { $0 == ".." || $0 == "." }) { return "contains a '.' or '..' component" }
        if parts.dropLast().contains(where: \.isEmpty) { return "contains '//'" }
        return nil
    }

    private static func entryName(of error: ArchiveError) -> String {
        switch error {
        case .entryUnreadable(_, let entry, _), .entryTooLarge(_, let entry, _), .entryNotFound(_, let entry, _),
            .entryRefused(_, let entry, _):
            return entry
        default:
            return ""
        }
    }
}
