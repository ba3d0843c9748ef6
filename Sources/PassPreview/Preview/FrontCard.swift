import PassModel

/// The front of a pass as Wallet lays it out for each style: logo row and header fields, then the style's own
/// arrangement of primary, secondary and auxiliary fields and images, then the barcode. Every box's width is
/// decided here (see `PassCard+Layout`), so the texts it cut come with the HTML.
enum FrontCard {
    static func html(_ card: PassCard) -> String { draw(card).html }

    /// The front's HTML and every text it laid out.
    static func draw(_ card: PassCard) -> FrontMarkup {
        let c = card.colors
        var style =
            "width:\(PassCard.width)px;height:\(card.height)px;background-color:\(c.background);"
            + "color:\(c.foreground);--label:\(c.label);"
        if card.style == .eventTicket, !card.images.has("strip"), let bg = card.images.dataURL("background") {
            // Wallet blurs and enlarges the legacy event background behind the fields.
            style += "--bg:url('\(bg)');"
        }
        let body: FrontMarkup
        switch card.style {
        case .storeCard, .coupon: body = stripped(card)
        case .generic: body = generic(card)
        case .eventTicket: body = eventTicket(card)
        case .boardingPass: body = boardingPass(card)
        case .posterGeneric: return poster(card, style: style, generic: true)
        case .posterEventTicket: return poster(card, style: style, generic: false)
        }
        let blurred = style.contains("--bg:") ? " blurred" : ""
        return FrontMarkup(
            "<section class=\"pass front \(card.style.rawValue)\(blurred)\" data-style=\"\(card.style.rawValue)\" "
                + "style=\"\(style)\">") + card.topRow() + body + "<div class=\"grow\"></div>" + card.barcodeHTML
            + "</section>"
    }

    /// Primary fields stacked in a box as wide as the content (the strip's or the primary row's).
    static func primaries(_ card: PassCard, width: Double, large: Bool) -> FrontMarkup {
        card.placed(.primaryFields).reduce(FrontMarkup()) { out, placed in
            out
                + card.field(
                    placed, width: width, value: large ? .largePrimary : .primary, label: .primaryLabel,
                    extraClass: "primary")
        }
    }

    /// Store card and coupon: the primary field over the strip image, then one row of up to four secondary and
    /// auxiliary fields.
    static func stripped(_ card: PassCard) -> FrontMarkup {
        var out = FrontMarkup(
            "<div class=\"strip\(card.images.has("strip") ? "" : " nostrip")\">" + card.image("strip", "stripimg"))
        out += primaries(card, width: PassCard.contentWidth, large: true) + "</div>"
        let shared = card.placed(.secondaryFields) + card.placed(.auxiliaryFields)
        return out + card.row(shared, width: PassCard.contentWidth, groupClass: "secondaryFields")
    }

    /// The primary fields with the thumbnail on their right (generic, and event tickets without a strip).
    static func primaryRow(_ card: PassCard) -> FrontMarkup {
        let thumbnail = card.image("thumbnail", "thumb")
        // The thumbnail is 80 px wide, 10 px from the fields.
        let width = PassCard.contentWidth - (thumbnail.isEmpty ? 0 : 90)
        return FrontMarkup("<div class=\"primaryrow\"><div class=\"primaries\">")
            + primaries(card, width: width, large: false) + "</div>" + thumbnail + "</div>"
    }

    /// Generic: the primary field with the thumbnail on its right, then the secondary and auxiliary rows.
    static func generic(_ card: PassCard) -> FrontMarkup {
        var out = primaryRow(card)
        if card.barcode?.image.isSquare == true {
            let shared = card.placed(.secondaryFields) + card.placed(.auxiliaryFields)
            out += card.row(shared, width: PassCard.contentWidth, groupClass: "secondaryFields")
        } else {
            out += card.row(.secondaryFields)
            out += card.row(.auxiliaryFields)
        }
        return out
    }

    /// Event ticket: a strip under the header (or the blurred background), the primary field with the
    /// thumbnail beside it, the secondary row and up to two auxiliary rows.
    static func eventTicket(_ card: PassCard) -> FrontMarkup {
        var out: FrontMarkup
        if card.images.has("strip") {
            out = FrontMarkup("<div class=\"strip event\">" + card.image("strip", "stripimg"))
            out += primaries(card, width: PassCard.contentWidth, large: false) + "</div>"
        } else {
            out = primaryRow(card)
        }
        out += card.row(.secondaryFields)
        return out + auxiliaryRows(card, width: PassCard.contentWidth)
    }

    /// An event ticket's auxiliary fields: row 0, then row 1.
    static func auxiliaryRows(_ card: PassCard, width: Double) -> FrontMarkup {
        let aux = card.placed(.auxiliaryFields)
        return card.row(aux.filter { ($0.field.row ?? 0) == 0 }, width: width, groupClass: "auxiliaryFields")
            + card.row(
                aux.filter { $0.field.row == 1 }, width: width, groupClass: "auxiliaryFields", extraClass: "second")
    }

    /// Boarding pass: origin and destination with the transit icon between, auxiliary row, secondary row and the
    /// footer image above the barcode.
    static func boardingPass(_ card: PassCard) -> FrontMarkup {
        let airports = Array(card.placed(.primaryFields).prefix(2))
        // The transit icon is 34 px wide; the codes share the rest.
        let widths = PassCard.shrink(
            airports.map { card.naturalWidth($0, value: .largePrimary, label: .primaryLabel) },
            into: PassCard.contentWidth - 34, gap: 0)
        var out = FrontMarkup("<div class=\"route\">")
        if let origin = airports.first {
            out += card.field(
                origin, width: widths[0], value: .largePrimary, label: .primaryLabel, extraClass: "primary airport")
        }
        out += TransitIcon.svg(card.structure.transitType, color: card.colors.foreground)
        if airports.count > 1 {
            out += card.field(
                airports[1], width: widths[1], value: .largePrimary, label: .primaryLabel,
                extraClass: "primary airport dest")
        }
        out += "</div>"
        out += card.row(.auxiliaryFields)
        out += card.row(.secondaryFields)
        return out + card.image("footer", "footerimg")
    }

    /// Poster generic (iOS 27) and poster event ticket (iOS 18): the artwork fills the card, header on top,
    /// primary fields (a first one without a label as a large title), the footer on a material strip at the
    /// bottom of the artwork, the barcode on a band of the background colour below it.
    static func poster(_ card: PassCard, style: String, generic: Bool) -> FrontMarkup {
        let art = card.images.has("artwork") ? "artwork" : "background"
        let artHeight = PassCard.width * 448 / 358
        let width = PassCard.posterContentWidth
        var out = FrontMarkup(
            "<section class=\"pass front poster \(card.style.rawValue)\" data-style=\"\(card.style.rawValue)\" "
                + "data-automatic-colors=\"\(card.colors.automatic)\" style=\"\(style)\">")
        out += "<div class=\"art\" style=\"height:\(artHeight)px\">" + card.image(art, "artimg")
        if card.source.pass.suppressHeaderDarkening != true {
            out += "<div class=\"darken\" style=\"--dark:\(PassColors.headerDarkening)\"></div>"
        }
        out += "<div class=\"artfields\">"
        out += card.topRow(logo: card.images.has("primaryLogo") ? "primaryLogo" : "logo", width: width)
        if generic {
            for (i, placed) in card.placed(.primaryFields).enumerated() {
                let title = i == 0 && (placed.field.label ?? "").isEmpty
                out += card.field(
                    placed, width: width, value: .posterPrimary, extraClass: "posterprimary\(title ? " title" : "")",
                    wraps: title)
            }
        } else {
            let tags = card.source.pass.semantics?.tags ?? [:]
            if let text = card.format.text(card.source.pass.eventLogoText) {
                out += "<div class=\"eventlogotext\">\(HTMLText.escape(text))</div>"
            }
            if let name = tags["eventName"]?.stringValue {
                out +=
                    "<div class=\"field posterprimary title\" data-group=\"semantics\" data-key=\"eventName\">"
                    + "<div class=\"value\">\(HTMLText.escape(card.localizer(name)))</div></div>"
            }
            let venue = [tags["venueName"]?.stringValue, tags["venueRoom"]?.stringValue].compactMap { $0 }
            if !venue.isEmpty {
                out +=
                    "<div class=\"venue\">\(HTMLText.escape(venue.map { card.localizer($0) }.joined(separator: " · ")))</div>"
            }
            // The poster draws the event from its semantics; primaryFields stay for the classic fallback.
        }
        out += "<div class=\"grow\"></div><div class=\"material\">"
        if generic {
            for placed in card.placed(.footerFields) { out += card.field(placed, width: width, value: .value) }
        } else {
            out += card.row(.secondaryFields, width: width)
            out += auxiliaryRows(card, width: width)
            out += card.image("secondaryLogo", "secondarylogo")
        }
        out += "</div></div></div>"
        if card.barcode != nil || card.barcodeProblem != nil {
            out += "<div class=\"band\">" + card.barcodeHTML + "</div>"
        }
        return out + "</section>"
    }
}
