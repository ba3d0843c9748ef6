import PassModel

/// WCAG 2 text contrast: foreground and label colours on the background colour, and on the image behind them
/// (the strip under a store card's or coupon's primary field, the top of a poster's artwork). Below 4.5:1 the
/// row's After is the nearest colour (mixed towards white or black) that reaches 4.5:1.
enum ContrastRule {
    static let minimum = 4.5

    static func check(_ c: LintContext, into rows: inout [LintRow]) {
        let colors = PassColors(c.pass, style: c.style, images: c.images)
        if colors.automatic { return }  // Wallet picks the colours from the artwork itself
        let bg = colors.background
        for (code, key, color, what) in [
            (LintCode.contrastForeground, "foregroundColor", colors.foreground, "field values"),
            (LintCode.contrastLabel, "labelColor", colors.label, "field labels"),
        ] where color.contrast(with: bg) < minimum {
            let fixed = nearest(color, on: [bg])
            rows.append(
                LintRow(
                    code, path: key,
                    before: "\(key) \(LintContext.quote(color.description)) on backgroundColor "
                        + "\(LintContext.quote(bg.description)) (\(ratio(color, bg)):1)",
                    after: "\"\(key)\": \(LintContext.quote(fixed.description)) (\(ratio(fixed, bg)):1)",
                    change: "\(what.prefix(1).uppercased() + what.dropFirst()) become readable in sunlight and for "
                        + "low-vision holders (WCAG asks 4.5:1; now \(ratio(color, bg)):1)"))
        }
        guard let (image, region) = imageBehindText(c),
            var average = c.images.averageColor(image, top: region.0, bottom: region.1)
        else { return }
        // Poster layouts darken the artwork under the header unless suppressHeaderDarkening is set.
        if c.style.isPoster, c.pass.suppressHeaderDarkening != true {
            average = average.mixed(with: .black, PassColors.headerDarkening)
        }
        let text = c.style.isPoster ? colors.foreground : RGB(c.pass.stripColor) ?? colors.foreground
        let key = c.pass.stripColor != nil && !c.style.isPoster ? "stripColor" : "foregroundColor"
        guard text.contrast(with: average) < minimum else { return }
        let fixed = nearest(text, on: [average, bg])
        rows.append(
            LintRow(
                LintCode.contrastImage, path: "\(image).png",
                before: "\(key) \(LintContext.quote(text.description)) over \(image).png (average "
                    + "\(LintContext.quote(average.description)), \(ratio(text, average)):1)",
                after:
                    "\"\(key)\": \(LintContext.quote(fixed.description)) (\(ratio(fixed, average)):1 on the image), or a darker/lighter \(image).png",
                change:
                    "The \(c.style.isPoster ? "fields over the artwork" : "primary field over the strip") can be read "
                    + "without squinting (now \(ratio(text, average)):1, WCAG asks 4.5:1)"))
    }

    /// The image under the text and the rows of it the text covers.
    static func imageBehindText(_ c: LintContext) -> (String, (Double, Double))? {
        switch c.style {
        case .storeCard, .coupon, .eventTicket:
            guard c.images.has("strip"), !(c.structure.primaryFields ?? []).isEmpty else { return nil }
            return ("strip", (0.15, 0.85))
        case .posterGeneric, .posterEventTicket:
            let art = c.images.has("artwork") ? "artwork" : "background"
            return c.images.has(art) ? (art, (0, 0.27)) : nil
        default: return nil
        }
    }

    /// The colour closest to `color` (mixing towards white or black in 5% steps) that reaches the minimum on
    /// every colour of `backgrounds`; black or white when no mix does.
    static func nearest(_ color: RGB, on backgrounds: [RGB]) -> RGB {
        func ok(_ c: RGB) -> Bool { backgrounds.allSatisfy { c.contrast(with: $0) >= minimum } }
        for step in 1...20 {
            let amount = Double(step) / 20
            for target in [RGB.white, RGB.black] {
                let mixed = color.mixed(with: target, amount)
                if ok(mixed) { return mixed }
            }
        }
        let base = backgrounds[0]
        return RGB.white.contrast(with: base) >= RGB.black.contrast(with: base) ? .white : .black
    }

    static func ratio(_ a: RGB, _ b: RGB) -> String {
        let r = (a.contrast(with: b) * 10).rounded() / 10
        return String(r)
    }
}
