import Foundation

/// `passmint preview PASSES_DIR --out gallery.html`: one page of thumbnails of every pass in a folder (a batch's
/// output), each linking to its full preview, written beside the gallery in `NAME-previews/`.
public enum PreviewGallery {
    /// What was written.
    public struct Result: Sendable {
        /// Thumbnails on the page (one per pass; a bundle gives one per pass inside).
        public var passes: Int
        /// Files that could not be drawn, with the reason; they appear on the page as a line of text.
        public var failures: [(file: String, reason: String)]
        /// The folder holding the full previews.
        public var previewFolder: String
    }

    /// Draws every .pkpass and .pkpasses under `folder` into the gallery `out` and its full previews.
    /// - Throws: `PreviewError.invalidInput` when the folder holds no pass, `.output` when a file cannot be written.
    public static func write(folder: String, to out: String, options: PreviewOptions = PreviewOptions())
        throws(PreviewError) -> Result
    {
        let files = PassVerifier.passFiles(in: folder)
        guard !files.isEmpty else {
            throw .invalidInput(file: folder, reason: "holds no .pkpass or .pkpasses file; give a batch's output folder")
        }
        let base = (out as NSString).deletingPathExtension
        let previewFolder = base + "-previews"
        let linkFolder = (previewFolder as NSString).lastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: previewFolder, withIntermediateDirectories: true)
        } catch {
            throw .output(file: previewFolder, reason: "\(error)")
        }
        var thumbnails: [String] = []
        var failures: [(String, String)] = []
        var small = options
        small.smallImages = true
        small.showBack = false
        for (index, file) in files.enumerated() {
            let name = (file as NSString).lastPathComponent
            let page = String(format: "%04d-", index + 1) + name + ".html"
            do {
                let sources = try PreviewSource.load(path: file)
                var full = options
                full.showBack = true
                try PassPreview.writeHTML(try PassPreview.document(sources, options: full), to: previewFolder + "/" + page)
                for source in sources {
                    let card = try PassCard(source, options: small)
                    thumbnails.append("<a class=\"thumbnail\" href=\"\(HTMLText.escape(linkFolder + "/" + page))\" "
                        + "data-file=\"\(HTMLText.escape(source.name))\"><div class=\"frame\" style=\"height:\(card.height / 2)px\">"
                        + FrontCard.html(card) + "</div><div>\(HTMLText.escape((source.name as NSString).lastPathComponent))</div></a>")
                }
            } catch {
                failures.append((file, error.description))
            }
        }
        var body = "<h1 class=\"name\">\(thumbnails.count) passes in \(HTMLText.escape(folder))</h1><div class=\"gallery\">"
            + thumbnails.joined() + "</div>"
        for (file, reason) in failures {
            body += "<p class=\"failure\">\(HTMLText.escape(file)): \(HTMLText.escape(reason))</p>"
        }
        try PassPreview.write(Array(PreviewPage.wrap(body, title: "Passes in \(folder)").utf8), to: out)
        return Result(passes: thumbnails.count, failures: failures, previewFolder: previewFolder)
    }
}
