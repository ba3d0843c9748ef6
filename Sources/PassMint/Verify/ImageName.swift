/// An image file name split into folder, base name and scale: "en.lproj/logo@2x.png" → ("en.lproj", "logo", 2).
struct ImageName: Hashable {
    var folder: String?
    var base: String
    var scale: Int
    /// The name without folder ("logo@2x.png").
    var fileName: String

    /// Parses a `.png` entry name at the root or in a `.lproj` folder; nil for anything else.
    init?(_ path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 1 || (parts.count == 2 && PassFiles.lproj(of: path) != nil) else { return nil }
        let file = parts[parts.count - 1]
        guard file.lowercased().hasSuffix(".png") else { return nil }
        var stem = String(file.dropLast(4))
        var scale = 1
        for candidate in [2, 3] where stem.hasSuffix("@\(candidate)x") {
            scale = candidate
            stem = String(stem.dropLast(3))
        }
        folder = parts.count == 2 ? parts[0] : nil
        base = stem
        self.scale = scale
        fileName = file
    }
}
