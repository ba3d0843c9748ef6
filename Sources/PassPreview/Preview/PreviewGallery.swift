import Foundation
import Synchronization
import PassMint

/// `passmint preview PASSES_DIR --out gallery.html`: one page of thumbnails of every pass in a folder (a batch's
/// output), each linking to its full preview, written beside the gallery in `NAME-previews/`.
public enum PreviewGallery {
    /// What was written.
    public struct Result: Sendable {
        /// Thumbnails on the page (one per pass; a bundle gives one per pass inside).
        public var passes: Int
        /// Files that could not be drawn, with why; they appear on the page as a line of text.
        public var failures: [(file: String, error: PreviewError)]
        /// The folder holding the full previews.
        public var previewFolder: String
    }

    /// One pass file's thumbnails, or why it could not be drawn.
    private struct Entry: Sendable {
        var thumbnails: [String] = []
        var failure: (file: String, error: PreviewError)?
    }

    /// Draws every .pkpass and .pkpasses under `folder` into the gallery `out` and its full previews.
    /// - Throws: `PreviewError.noPasses` when the folder holds no pass, `.output` when a file cannot be written.
    public static func write(folder: String, to out: String, options: PreviewOptions = PreviewOptions())
        throws(PreviewError) -> Result
    {
        let files = PassVerifier.passFiles(in: folder)
        guard !files.isEmpty else {
            throw .noPasses(folder: folder)
        }
        let base = (out as NSString).deletingPathExtension
        let previewFolder = base + "-previews"
        let linkFolder = (previewFolder as NSString).lastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: previewFolder, withIntermediateDirectories: true)
        } catch {
            throw .output(file: previewFolder, .fileSystem(underlying: error))
        }
        let small = PreviewOptions(
            locale: options.locale, showBack: false, timeZone: options.timeZone, smallImages: true)
        let full = PreviewOptions(locale: options.locale, showBack: true, timeZone: options.timeZone)
        // Passes are independent: draw them on every core, each into its own slot, in folder order.
        let slots = Mutex([Entry?](repeating: nil, count: files.count))
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            let page = String(format: "%04d-", index + 1) + (file as NSString).lastPathComponent + ".html"
            var entry = Entry()
            do throws(PreviewError) {
                let sources = try PreviewSource.load(path: file)
                try PassPreview.writeHTML(
                    try PassPreview.document(sources, options: full), to: previewFolder + "/" + page)
                for source in sources {
                    let card = try PassCard(source, options: small)
                    entry.thumbnails.append(
                        "<a class=\"thumbnail\" href=\"\(HTMLText.escape(linkFolder + "/" + page))\" "
                            + "data-file=\"\(HTMLText.escape(source.name))\"><div class=\"frame\" style=\"height:\(card.height / 2)px\">"
                            + FrontCard.html(card)
                            + "</div><div class=\"caption\">\(HTMLText.escape((source.name as NSString).lastPathComponent))</div></a>"
                    )
                }
            } catch {
                entry.failure = (file, error)
            }
            slots.withLock { $0[index] = entry }
        }
        let entries = slots.withLock { $0.compactMap { $0 } }
        let thumbnails = entries.flatMap(\.thumbnails)
        let failures = entries.compactMap(\.failure)
        var body =
            "<h1 class=\"name\">\(thumbnails.count) passes in \(HTMLText.escape(folder))</h1><div class=\"gallery\">"
            + thumbnails.joined() + "</div>"
        for (file, error) in failures {
            body += "<p class=\"failure\">\(HTMLText.escape(file)): \(HTMLText.escape(error.description))</p>"
        }
        try PassPreview.write(Array(PreviewPage.wrap(body, title: "Passes in \(folder)").utf8), to: out)
        return Result(passes: thumbnails.count, failures: failures, previewFolder: previewFolder)
    }
}
