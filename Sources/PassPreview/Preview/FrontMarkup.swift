import PassModel

/// The front of a pass as HTML, with every line of text the layout fitted into a box: the preview writes the
/// HTML, lint reports the texts that were cut. Built by concatenation, so both always come from one drawing.
struct FrontMarkup {
    var html: String
    var texts: [ShownText]

    init(_ html: String = "", texts: [ShownText] = []) {
        self.html = html
        self.texts = texts
    }

    static func + (lhs: FrontMarkup, rhs: FrontMarkup) -> FrontMarkup {
        FrontMarkup(lhs.html + rhs.html, texts: lhs.texts + rhs.texts)
    }

    static func + (lhs: FrontMarkup, rhs: String) -> FrontMarkup { FrontMarkup(lhs.html + rhs, texts: lhs.texts) }

    static func += (lhs: inout FrontMarkup, rhs: FrontMarkup) {
        lhs.html += rhs.html
        lhs.texts += rhs.texts
    }

    static func += (lhs: inout FrontMarkup, rhs: String) { lhs.html += rhs }
}

/// One line of text on the front, as laid out: what it belongs to, the box's width and what the box shows.
public struct ShownText: Sendable, Hashable {
    /// The JSON path of the text in pass.json: `storeCard.headerFields[0].label`, `logoText`.
    public let path: String
    /// The field's key; nil for the logo text.
    public let key: String?
    /// The box's width in CSS pixels.
    public let width: Double
    public let fitted: FittedText
}

/// A field at its place in pass.json: its group and index there (for JSON paths), and the field.
struct PlacedField {
    let group: PassFieldGroup
    let index: Int
    let field: PassField
}
