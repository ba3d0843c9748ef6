import PassModel

/// Everything one pass's card needs to be drawn: the pass, its layout, colours, images, formatter and barcode.
/// `FrontCard` and `BackCard` turn it into HTML.
struct PassCard {
    let source: PreviewSource
    let style: PreviewStyle
    let structure: PassStructure
    let colors: PassColors
    let images: PassImages
    let format: FieldFormatter
    let localizer: PassLocalizer
    /// The barcode Wallet shows (the first entry of `barcodes`, else the deprecated `barcode`), drawn; with its
    /// JSON path and altText.
    let barcode: (image: BarcodeImage, altText: String?, path: String)?
    /// Why the pass's barcode could not be drawn, when it could not.
    let barcodeProblem: PreviewError?
    /// Things the preview drew differently from pass.json and why (a poster ticket shown as classic, fields cut).
    var notes: [String]

    /// The card width in CSS pixels (Wallet's 320 pt card on a 375 pt screen, a little wider for legibility).
    static let width = 340

    init(_ source: PreviewSource, options: PreviewOptions) throws(PreviewError) {
        guard let style = PreviewStyle(source.pass), let structure = source.pass[style.dictionary] else {
            throw .noStyle(file: source.name)
        }
        self.source = source
        self.style = style
        self.structure = structure
        localizer = PassLocalizer(files: source.files, locale: options.locale)
        images = PassImages(files: source.files, localizedFolder: localizer.folder, preferSmall: options.smallImages)
        colors = PassColors(source.pass, style: style, images: images)
        format = FieldFormatter(locale: options.locale, timeZone: options.timeZone, localizer: localizer)
        var notes: [String] = []
        if source.pass.style == .eventTicket, source.pass.prefersPosterEventTicket, style == .eventTicket {
            notes.append(
                "shown as a classic event ticket, as Wallet does: the poster layout needs semantics."
                    + PreviewStyle.missingPosterSemantics(source.pass).joined(separator: ", semantics."))
        }
        if let entry = source.pass.barcodes?.first ?? source.pass.barcode {
            let path = source.pass.barcodes?.isEmpty == false ? "barcodes[0]" : "barcode"
            do {
                let image = try BarcodeImage.draw(
                    PassBarcode(
                        format: entry.format ?? .qr, message: entry.message ?? "",
                        messageEncoding: entry.messageEncoding ?? "iso-8859-1"),
                    path: path)
                barcode = (image, localizer(entry.altText), path)
                barcodeProblem = nil
            } catch {
                // Drawn as a marked gap with the reason, so a gallery still shows the pass and what is wrong.
                barcode = nil
                barcodeProblem = error
                notes.append(error.description)  // the preview's own text: drawn on the page
            }
        } else {
            barcode = nil
            barcodeProblem = nil
        }
        for group in PassFieldGroup.allCases where group != .backFields {
            let all = structure[group] ?? []
            let shown = style.visible(group, in: structure, squareBarcode: barcode?.image.isSquare ?? false)
            if all.count > shown.count {
                let hidden = all.filter { f in !shown.contains { $0.key == f.key } }.compactMap(\.key)
                notes.append(
                    "\(style.dictionary.rawValue).\(group.rawValue): Wallet does not show "
                        + hidden.joined(separator: ", "))
            }
        }
        self.notes = notes
    }

    /// The fields of `group` Wallet draws.
    func visible(_ group: PassFieldGroup) -> [PassField] {
        style.visible(group, in: structure, squareBarcode: barcode?.image.isSquare ?? false)
    }

    /// The card height in CSS pixels: classic passes are a fixed size on the phone; a poster is its artwork
    /// (358×448 pt) plus the band that holds the barcode.
    var height: Int {
        switch style {
        case .posterGeneric, .posterEventTicket:
            let art = Self.width * 448 / 358
            guard barcode != nil || barcodeProblem != nil else { return art }
            return art + (barcode?.image.isSquare == true ? 200 : 130)
        default:
            return 440
        }
    }

    /// The barcode in its white box with its altText, sized as Wallet sizes square and wide codes.
    var barcodeHTML: String {
        guard let barcode else {
            guard let barcodeProblem else { return "" }
            return "<div class=\"barcode broken\"><div class=\"alt\">"
                + HTMLText.escape(barcodeProblem.description) + "</div></div>"
        }
        let image = barcode.image
        let (w, h): (Int, Int)
        if image.isSquare {
            (w, h) = (150, 150)
        } else if image.format == .pdf417 {
            w = 264
            h = min(100, max(60, Int(264 * image.modules.height / image.modules.width)))
        } else {
            (w, h) = (264, 84)
        }
        return
            "<div class=\"barcode\" data-format=\"\(image.format.rawValue)\"><div class=\"code\" style=\"width:\(w)px;height:\(h)px\">"
            + image.svg.replacingOccurrences(of: "<svg ", with: "<svg width=\"\(w)\" height=\"\(h)\" ")
            + "</div>" + (barcode.altText.map { "<div class=\"alt\">\(HTMLText.escape($0))</div>" } ?? "") + "</div>"
    }
}
