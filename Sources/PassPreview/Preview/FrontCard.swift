import PassModel

/// The front of a pass as Wallet lays it out for each style: logo row and header fields, then the style's own
/// arrangement of primary, secondary and auxiliary fields and images, then the barcode.
enum FrontCard {
    static func html(_ card: PassCard) -> String {
        let c = card.colors
        var style =
            "width:\(PassCard.width)px;height:\(card.height)px;background-color:\(c.background);"
            + "color:\(c.foreground);--label:\(c.label);"
        if card.style == .eventTicket, !card.images.has("strip"), let bg = card.images.dataURL("background") {
            // Wallet blurs and enlarges the legacy event background behind the fields.
            style += "--bg:url('\(bg)');"
        }
        let body: String
        switch card.style {
        case .storeCard, .coupon: body = stripped(card)
        case .generic: body = generic(card)
        case .eventTicket: body = eventTicket(card)
        case .boardingPass: body = boardingPass(card)
        case .posterGeneric: return poster(card, style: style, generic: true)
        case .posterEventTicket: return poster(card, style: style, generic: false)
        }
        let blurred = style.contains("--bg:") ? " blurred" : ""
        return "<section class=\"pass front \(card.style.rawValue)\(blurred)\" data-style=\"\(card.style.rawValue)\" "
            + "style=\"\(style)\">" + card.topRow() + body + "<div class=\"grow\"></div>" + card.barcodeHTML
            + "</section>"
    }

    /// Store card and coupon: the primary field over the strip image, then one row of up to four secondary and
    /// auxiliary fields.
    static func stripped(_ card: PassCard) -> String {
        var out = "<div class=\"strip\(card.images.has("strip") ? "" : " nostrip")\">" + card.image("strip", "stripimg")
        out += card.visible(.primaryFields).map { card.field($0, .primaryFields, extraClass: "primary") }.joined()
        out += "</div>"
        let shared =
            card.visible(.secondaryFields).map { card.field($0, .secondaryFields) }
            + card.visible(.auxiliaryFields).map { card.field($0, .auxiliaryFields) }
        if !shared.isEmpty { out += "<div class=\"row secondaryFields\">" + shared.joined() + "</div>" }
        return out
    }

    /// Generic: the primary field with the thumbnail on its right, then the secondary and auxiliary rows.
    static func generic(_ card: PassCard) -> String {
        var out = "<div class=\"primaryrow\"><div class=\"primaries\">"
        out += card.visible(.primaryFields).map { card.field($0, .primaryFields, extraClass: "primary") }.joined()
        out += "</div>" + card.image("thumbnail", "thumb") + "</div>"
        if card.barcode?.image.isSquare == true {
            let shared =
                card.visible(.secondaryFields).map { card.field($0, .secondaryFields) }
                + card.visible(.auxiliaryFields).map { card.field($0, .auxiliaryFields) }
            if !shared.isEmpty { out += "<div class=\"row secondaryFields\">" + shared.joined() + "</div>" }
        } else {
            out += card.row(.secondaryFields, card.visible(.secondaryFields))
            out += card.row(.auxiliaryFields, card.visible(.auxiliaryFields))
        }
        return out
    }

    /// Event ticket: a strip under the header (or the blurred background), the primary field with the
    /// thumbnail beside it, the secondary row and up to two auxiliary rows.
    static func eventTicket(_ card: PassCard) -> String {
        var out = ""
        if card.images.has("strip") {
            out += "<div class=\"strip event\">" + card.image("strip", "stripimg")
            out += card.visible(.primaryFields).map { card.field($0, .primaryFields, extraClass: "primary") }.joined()
            out += "</div>"
        } else {
            out += "<div class=\"primaryrow\"><div class=\"primaries\">"
            out += card.visible(.primaryFields).map { card.field($0, .primaryFields, extraClass: "primary") }.joined()
            out += "</div>" + card.image("thumbnail", "thumb") + "</div>"
        }
        out += card.row(.secondaryFields, card.visible(.secondaryFields))
        let aux = card.visible(.auxiliaryFields)
        out += card.row(.auxiliaryFields, aux.filter { ($0.row ?? 0) == 0 })
        out += card.row(.auxiliaryFields, aux.filter { $0.row == 1 }, extraClass: "second")
        return out
    }

    /// Boarding pass: origin and destination with the transit icon between, auxiliary row, secondary row and the
    /// footer image above the barcode.
    static func boardingPass(_ card: PassCard) -> String {
        let primaries = card.visible(.primaryFields)
        var out = "<div class=\"route\">"
        if let origin = primaries.first { out += card.field(origin, .primaryFields, extraClass: "primary airport") }
        out += TransitIcon.svg(card.structure.transitType, color: card.colors.foreground)
        if primaries.count > 1 {
            out += card.field(primaries[1], .primaryFields, extraClass: "primary airport dest")
        }
        out += "</div>"
        out += card.row(.auxiliaryFields, card.visible(.auxiliaryFields))
        out += card.row(.secondaryFields, card.visible(.secondaryFields))
        out += card.image("footer", "footerimg")
        return out
    }

    /// Poster generic (iOS 27) and poster event ticket (iOS 18): the artwork fills the card, header on top,
    /// primary fields (a first one without a label as a large title), the footer on a material strip at the
    /// bottom of the artwork, the barcode on a band of the background colour below it.
    static func poster(_ card: PassCard, style: String, generic: Bool) -> String {
        let art = card.images.has("artwork") ? "artwork" : "background"
        let artHeight = PassCard.width * 448 / 358
        var out =
            "<section class=\"pass front poster \(card.style.rawValue)\" data-style=\"\(card.style.rawValue)\" "
            + "data-automatic-colors=\"\(card.colors.automatic)\" style=\"\(style)\">"
        out += "<div class=\"art\" style=\"height:\(artHeight)px\">" + card.image(art, "artimg")
        if card.source.pass.suppressHeaderDarkening != true {
            out += "<div class=\"darken\" style=\"--dark:\(PassColors.headerDarkening)\"></div>"
        }
        out += "<div class=\"artfields\">"
        out += card.topRow(logo: card.images.has("primaryLogo") ? "primaryLogo" : "logo")
        if generic {
            for (i, f) in card.visible(.primaryFields).enumerated() {
                let title = i == 0 && (f.label ?? "").isEmpty ? "title" : ""
                out += card.field(f, .primaryFields, extraClass: "posterprimary \(title)")
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
            out += card.visible(.footerFields).map { card.field($0, .footerFields) }.joined()
        } else {
            out += card.row(.secondaryFields, card.visible(.secondaryFields))
            let aux = card.visible(.auxiliaryFields)
            out += card.row(.auxiliaryFields, aux.filter { ($0.row ?? 0) == 0 })
            out += card.row(.auxiliaryFields, aux.filter { $0.row == 1 }, extraClass: "second")
            out += card.image("secondaryLogo", "secondarylogo")
        }
        out += "</div></div></div>"
        if card.barcode != nil || card.barcodeProblem != nil {
            out += "<div class=\"band\">" + card.barcodeHTML + "</div>"
        }
        return out + "</section>"
    }
}
