/// The one measure of text width that `preview` lays out with and `lint` reports from: the sum of DejaVu Sans's
/// advances (the style sheet turns kerning and ligatures off, so Chromium draws exactly that), plus
/// letter-spacing after every character. White space collapses to one space, as `white-space: nowrap` does.
public enum TextWidth {
    /// CSS pixels `text` takes in `font`.
    public static func width(_ text: String, _ font: PreviewFont) -> Double {
        var total = 0.0
        for scalar in (font.uppercase ? text.uppercased() : text).unicodeScalars {
            total += advance(scalar, font)
        }
        return total
    }

    /// `text` as a box `width` pixels wide shows it: whole, or the most characters that fit followed by "…".
    public static func fit(_ text: String, _ font: PreviewFont, width: Double) -> FittedText {
        let collapsed = collapsingWhiteSpace(text)
        // Boxes are sized to 1/100 px: a text that was measured to fit its box's natural width always fits. A cut
        // line keeps a twentieth of a pixel of slack, as Chromium positions glyphs to 1/64 px.
        if Self.width(collapsed, font) <= width + 0.01 {
            return FittedText(full: collapsed, kept: collapsed, isCut: false)
        }
        let room = width - 0.05
        let ellipsis = Self.width("\u{2026}", font)
        var kept = ""
        var used = 0.0
        for character in collapsed {
            let next = Self.width(String(character), font)
            if used + next + ellipsis > room { break }
            kept.append(character)
            used += next
        }
        while kept.last == " " { kept.removeLast() }
        return FittedText(full: collapsed, kept: kept, isCut: true, ellipsisFits: ellipsis <= room)
    }

    /// Runs of spaces, tabs and line breaks as one space, none at either end.
    static func collapsingWhiteSpace(_ text: String) -> String {
        var out = ""
        var pendingSpace = false
        for character in text {
            if character == " " || character == "\t" || character == "\n" || character == "\r\n"
                || character == "\r"
            {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(" ") }
            pendingSpace = false
            out.append(character)
        }
        return out
    }

    /// One character's advance: DejaVu Sans's own, none for a combining mark, and for a character DejaVu Sans
    /// lacks (a fallback font draws it) an em for wide East Asian characters and emoji, 0.6 em otherwise.
    static func advance(_ scalar: Unicode.Scalar, _ font: PreviewFont) -> Double {
        let properties = scalar.properties
        if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark {
            return 0
        }
        let spacing = font.letterSpacing * font.size
        if let units = DejaVuSansTable.shared.advance(scalar.value, font.weight) {
            return Double(units) / DejaVuSansMetrics.unitsPerEm * font.size + spacing
        }
        let wide =
            (0x1100...0x115F).contains(scalar.value) || (0x2E80...0xA4CF).contains(scalar.value)
            || (0xAC00...0xD7A3).contains(scalar.value) || (0xF900...0xFAFF).contains(scalar.value)
            || (0xFF00...0xFF60).contains(scalar.value) || (0x1F300...0x1FAFF).contains(scalar.value)
            || (0x20000...0x3FFFD).contains(scalar.value)
        return (wide ? 1.0 : 0.6) * font.size + spacing
    }
}

/// `DejaVuSansMetrics`' hex tables decoded once.
struct DejaVuSansTable: Sendable {
    static let shared = DejaVuSansTable()

    let book: [UInt16]
    let bold: [UInt16]
    let extraLight: [UInt16]
    /// Unicode page → its offset in the tables.
    let pageIndex: [UInt32: Int]

    init() {
        book = Self.decode(DejaVuSansMetrics.book)
        bold = Self.decode(DejaVuSansMetrics.bold)
        extraLight = Self.decode(DejaVuSansMetrics.extraLight)
        var index: [UInt32: Int] = [:]
        for (i, page) in DejaVuSansMetrics.pages.enumerated() { index[page] = i * 256 }
        pageIndex = index
    }

    /// Font units, nil when the face has no glyph for `codePoint` (or it is outside the pages kept).
    func advance(_ codePoint: UInt32, _ weight: PreviewFont.Weight) -> UInt16? {
        guard let base = pageIndex[codePoint >> 8] else { return nil }
        let table: [UInt16]
        switch weight {
        case .book: table = book
        case .bold: table = bold
        case .extraLight: table = extraLight
        }
        let units = table[base + Int(codePoint & 0xFF)]
        return units == 0 ? nil : units
    }

    static func decode(_ hex: String) -> [UInt16] {
        var out: [UInt16] = []
        out.reserveCapacity(hex.utf8.count / 4)
        var value: UInt16 = 0
        var digits = 0
        for byte in hex.utf8 {
            let digit: UInt16
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt16(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt16(byte - UInt8(ascii: "A") + 10)
            default: continue
            }
            value = value << 4 | digit
            digits += 1
            if digits == 4 {
                out.append(value)
                value = 0
                digits = 0
            }
        }
        return out
    }
}
