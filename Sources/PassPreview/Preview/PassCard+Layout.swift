import PassModel
import PassMint

/// The front's boxes: every field and the logo text get a width decided here, and their text is cut to it with
/// "…" here, measured by `TextWidth`. The browser only draws the result (the style sheet clips, it never cuts), so
/// lint can report exactly the cuts the preview shows.
extension PassCard {
    /// A classic front's content width: the card less its 12 px padding on each side.
    static let contentWidth = Double(width - 24)
    /// A poster's content width: the card less 14 px on each side.
    static let posterContentWidth = Double(width - 28)
    /// The space between the boxes of a row of fields, and of the logo row.
    static let rowGap = 14.0
    static let topGap = 8.0
    /// The widest a header field may be.
    static let headerMaxWidth = 130.0

    /// The fields of `group` Wallet draws, with their index in pass.json.
    func placed(_ group: PassFieldGroup) -> [PlacedField] {
        let all = structure[group] ?? []
        var taken = Set<Int>()
        return visible(group).compactMap { field in
            guard let index = all.indices.first(where: { !taken.contains($0) && all[$0] == field }) else { return nil }
            taken.insert(index)
            return PlacedField(group: group, index: index, field: field)
        }
    }

    /// The JSON path of a placed field.
    func path(_ placed: PlacedField) -> String {
        "\(style.dictionary.rawValue).\(placed.group.rawValue)[\(placed.index)]"
    }

    /// The width a field takes when nothing is cut: its label's or its value's, whichever is wider.
    func naturalWidth(_ placed: PlacedField, value: PreviewFont, label: PreviewFont = .label) -> Double {
        max(
            TextWidth.width(TextWidth.collapsingWhiteSpace(format.label(placed.field)), label),
            TextWidth.width(TextWidth.collapsingWhiteSpace(format.value(placed.field)), value))
    }

    /// One field in a box `width` pixels wide: label over value, each cut with "…" when it does not fit; tagged
    /// with its group and key for tests and tools. A value that `wraps` (a poster's title) is never cut.
    func field(
        _ placed: PlacedField, width: Double, value valueFont: PreviewFont, label labelFont: PreviewFont = .label,
        extraClass: String = "", wraps: Bool = false
    ) -> FrontMarkup {
        let f = placed.field
        let align: String
        switch f.textAlignment {
        case .right?: align = ";text-align:right"
        case .center?: align = ";text-align:center"
        default: align = ""
        }
        var out = FrontMarkup(
            "<div class=\"field \(extraClass)\" data-group=\"\(placed.group.rawValue)\" "
                + "data-key=\"\(HTMLText.escape(f.key ?? ""))\" style=\"width:\(Self.css(width))\(align)\">")
        let label = format.label(f)
        if !label.isEmpty {
            out += text(
                TextWidth.fit(label, labelFont, width: width), cssClass: "label", path: path(placed) + ".label",
                key: f.key, width: width)
        }
        if wraps {
            out += "<div class=\"value\">\(HTMLText.escape(format.value(f)))</div>"
        } else {
            out += text(
                TextWidth.fit(format.value(f), valueFont, width: width), cssClass: "value",
                path: path(placed) + ".value", key: f.key, width: width)
        }
        return out + "</div>"
    }

    /// A line of fitted text: what fits, and the whole text as its tooltip when it was cut.
    func text(_ fitted: FittedText, cssClass: String, path: String, key: String?, width: Double, style: String = "")
        -> FrontMarkup
    {
        let title = fitted.isCut ? " title=\"\(HTMLText.escape(fitted.full))\"" : ""
        return FrontMarkup(
            "<div class=\"\(cssClass)\"\(style.isEmpty ? "" : " style=\"\(style)\"")\(title)>"
                + "\(HTMLText.escape(fitted.shown))</div>",
            texts: [ShownText(path: path, key: key, width: width, fitted: fitted)])
    }

    /// A row of fields `width` wide: each at its natural width while they fit; when together they are wider,
    /// each gives up room in proportion to its width (as CSS flex-shrink does), and its text is cut to what is left.
    func row(_ fields: [PlacedField], width: Double, groupClass: String, extraClass: String = "") -> FrontMarkup {
        guard !fields.isEmpty else { return FrontMarkup() }
        let font = PreviewFont.rowValue(count: fields.count)
        let widths = Self.shrink(fields.map { naturalWidth($0, value: font) }, into: width, gap: Self.rowGap)
        var out = FrontMarkup("<div class=\"row \(groupClass) \(extraClass)\">")
        for (placed, boxWidth) in zip(fields, widths) { out += field(placed, width: boxWidth, value: font) }
        return out + "</div>"
    }

    /// `row` for the visible fields of one group.
    func row(_ group: PassFieldGroup, width: Double = contentWidth, extraClass: String = "") -> FrontMarkup {
        row(placed(group), width: width, groupClass: group.rawValue, extraClass: extraClass)
    }

    /// Widths for boxes of `natural` widths side by side in `width` with `gap` between them: as they are when they
    /// fit, else each shrunk in proportion to its natural width. Natural widths are rounded up to 1/100 px, shrunk
    /// ones down, so a text measured to fit always does.
    static func shrink(_ natural: [Double], into width: Double, gap: Double) -> [Double] {
        let room = max(0, width - gap * Double(max(0, natural.count - 1)))
        let total = natural.reduce(0, +)
        guard total > room, total > 0 else { return natural.map { ($0 * 100).rounded(.up) / 100 } }
        let over = total - room
        return natural.map { (max(0, $0 - over * $0 / total) * 100).rounded(.down) / 100 }
    }

    /// A width for CSS.
    static func css(_ width: Double) -> String {
        let hundredths = Int((width * 100).rounded())
        return hundredths % 100 == 0 ? "\(hundredths / 100)px" : "\(Double(hundredths) / 100)px"
    }

    /// The size the image of `slot` is drawn at within `maxWidth`×`maxHeight` (its aspect kept, never enlarged),
    /// from its header; nil when the pass has no such image or its size cannot be read.
    func imageSize(_ slot: String, maxWidth: Double, maxHeight: Double) -> (width: Double, height: Double)? {
        guard let bytes = images.bytes(slot), let size = ImageInfo.pngSize(bytes) ?? ImageInfo.jpegSize(bytes)
        else { return nil }
        let (w, h) = (Double(size.width), Double(size.height))
        let scale = min(1, maxWidth / w, maxHeight / h)
        return ((w * scale * 100).rounded(.down) / 100, (h * scale * 100).rounded(.down) / 100)
    }

    /// The image of slot `base` as an `<img>` with a class, or "".
    func image(_ base: String, _ cssClass: String, size: (width: Double, height: Double)? = nil) -> String {
        guard let url = images.dataURL(base) else { return "" }
        let style = size.map { " style=\"width:\(Self.css($0.width));height:\(Self.css($0.height))\"" } ?? ""
        return "<img class=\"\(cssClass)\" data-image=\"\(base)\" alt=\"\"\(style) src=\"\(url)\">"
    }

    /// The logo (or a poster's primaryLogo), the logo text and the header fields on the right, in `width`: the
    /// logo at its size, the header fields at their natural widths (at most 130 px each, shrunk together when they
    /// do not fit), and the logo text in the room left between them.
    func topRow(logo slot: String = "logo", width: Double = contentWidth) -> FrontMarkup {
        let poster = style.isPoster
        let logoSize = imageSize(slot, maxWidth: poster ? 126 : 150, maxHeight: poster ? 30 : 42)
        let logoText =
            style == .posterEventTicket ? nil : format.text(source.pass.logoText).flatMap { $0.isEmpty ? nil : $0 }
        let headers = placed(.headerFields)
        // Logo, logo text, the spacer that pushes the headers right, the headers.
        let items = (logoSize == nil ? 0 : 1) + (logoText == nil ? 0 : 1) + 1 + headers.count
        let fixed = (logoSize?.width ?? 0) + Self.topGap * Double(items - 1)
        let headerWidths = Self.shrink(
            headers.map { min(Self.headerMaxWidth, naturalWidth($0, value: .headerValue)) }, into: width - fixed, gap: 0
        )
        let room = ((width - fixed - headerWidths.reduce(0, +)) * 100).rounded(.down) / 100
        var out = FrontMarkup("<div class=\"top\">")
        if let logoSize { out += image(slot, "logo", size: logoSize) }
        if let logoText {
            let box = max(0, room)
            out += text(
                TextWidth.fit(logoText, .logoText, width: box), cssClass: "logotext", path: "logoText", key: nil,
                width: box, style: "width:\(Self.css(box))")
        }
        out += "<div class=\"spacer\"></div>"
        for (placed, boxWidth) in zip(headers, headerWidths) {
            out += field(placed, width: boxWidth, value: .headerValue, extraClass: "header")
        }
        return out + "</div>"
    }
}
