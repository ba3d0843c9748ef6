import Foundation
import PassPreview

/// `passmint preview`: see a pass (or a folder of passes) before any phone does.
struct PreviewCommand: Command {
    static let out = Option<String>(
        "out", "FILE", "where to write: .html, or .png (needs Chromium); a gallery is always .html")
    static let set = RepeatedOption("set", "KEY=VALUE", "a template value, as generate takes it")
    static let tier = Option<String>("tier", "T", "render the template's tier T (its tier field set to T)")
    static let locale = Option<String>(
        "locale", "xx", "localize with xx.lproj/pass.strings and format dates and numbers for xx")
    static let back = Flag("back", "draw the back of the pass beside the front")

    static let spec = CommandSpec(
        name: "preview",
        abstract: "draw a pass, template or folder of passes as Wallet shows them (HTML, or PNG)",
        usage:
            "preview FILE.pkpass|TEMPLATE_DIR|PASSES_DIR [--set K=V]… [--tier T] [--locale xx] [--back] --out OUT.html|OUT.png",
        discussion: """
            Draws the front (and with --back the back) in the pass's style: logo, header, primary, secondary,
            auxiliary and footer fields in Wallet's places and counts, strip, thumbnail, background, artwork and
            footer images, colours (automatic on poster styles), featured actions, dates and numbers formatted
            for --locale, localized strings, and the barcode drawn by libzint with its altText.
            OUT.html is one self-contained file; OUT.png is that page at 3x by headless Chromium (install
            `chromium`, or set PASSMINT_CHROMIUM). A folder of .pkpass files gives one gallery page of thumbnails,
            each linked to its full preview (written to OUT-previews/).
            Exit status: 0 written, 1 the input cannot be drawn, 2 usage, 3 Chromium missing or output unwritable.
            """,
        options: [
            out,
            set,
            tier,
            locale,
            back,
        ],
        positionals: 1...1,
        examples: [
            "passmint preview Templates/loyalty --out loyalty.png",
            "passmint preview Templates/status --tier Gold --back --out status-gold.png",
            "passmint preview Templates/loyalty --locale de --set points=1200 --out loyalty-de.html",
            "passmint preview out/ --out gallery.html",
        ]
    )

    let input: String
    let out: String
    let record: [String: String]
    let tier: String?
    let options: PreviewOptions

    init(_ args: ParsedArguments) throws(CLIError) {
        input = args.positionals[0]
        out = try args.required(Self.out, of: Self.spec)
        record = try args.keyValues(Self.set)
        tier = args[Self.tier]
        options = PreviewOptions(locale: args[Self.locale], showBack: args[Self.back])
        let ext = (out as NSString).pathExtension.lowercased()
        guard ext == "html" || ext == "png" else {
            throw .usage("--out must end in .html or .png, not '\(out)'")
        }
    }

    func run() throws(CLIError) -> Int32 {
        do {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory)
            let isTemplate = FileManager.default.fileExists(atPath: input + "/pass.json")
            if exists, isDirectory.boolValue, !isTemplate {
                guard out.lowercased().hasSuffix(".html") else {
                    throw CLIError.usage("a folder of passes gives a gallery page: use --out FILE.html")
                }
                let result = try PreviewGallery.write(folder: input, to: out, options: options)
                for failure in result.failures { Console.error("warning: \(failure.file): \(failure.error)") }
                print("wrote \(out): \(result.passes) passes (full previews in \(result.previewFolder)/)")
                return result.failures.isEmpty ? 0 : 1
            }
            let sources = try PreviewSource.load(path: input, record: record, tier: tier)
            let document = try PassPreview.document(sources, options: options)
            for note in document.notes { Console.error("note: \(note)") }
            if out.lowercased().hasSuffix(".png") {
                try PassPreview.writePNG(document, to: out)
            } else {
                try PassPreview.writeHTML(document, to: out)
            }
            print("wrote \(out)")
            return 0
        } catch let error as CLIError {
            throw error
        } catch let error as PreviewError {
            throw CLIError(error)
        } catch {
            throw .invalid("\(error)")
        }
    }
}

extension PreviewError {
    /// The CLI form: a missing program or unwritable output exits 3, a bad input 1.
    var cli: CLIError { isEnvironment ? .environment(description) : .invalid(description) }
}
