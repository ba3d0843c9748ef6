import PassModel

/// One typed input of a template, declared in `template.json` (or implied by a placeholder when there is none).
public struct TemplateField: Sendable, Equatable {
    /// The value type. Integer and decimal fields become JSON numbers where a string is exactly their placeholder.
    /// An image field's value is a PNG/JPEG path for the image slot `imageSlot` (like an `image.SLOT` record key).
    public enum Kind: String, Sendable, CaseIterable {
        case string, integer, decimal, date, `enum`, image
    }

    /// The record key (CSV header, `--set` key) and the placeholder name.
    public var name: String
    public var kind: Kind
    /// A required field needs a value in the record unless it has a default.
    public var required: Bool
    /// Used when the record has no (or an empty) value. Already normalised for its kind.
    public var defaultValue: String?
    /// The allowed values of an enum field (empty for other kinds).
    public var values: [String]
    public var description: String?
    /// The image slot (`thumbnail`, `artwork`, …) an image field fills; nil for other kinds.
    public var imageSlot: String?
    /// The smallest value an integer or decimal field takes (`minimum` in template.json), normalised; nil: none.
    /// Checked on every value the record gets, a value set or the result of an addition.
    public var minimum: String?
    /// The largest value an integer or decimal field takes (`maximum`), normalised; nil: none.
    public var maximum: String?

    /// True for the kinds that hold numbers (integer, decimal): the ones a change can add to.
    public var isNumber: Bool { kind == .integer || kind == .decimal }

    public init(
        name: String, kind: Kind = .string, required: Bool = false, defaultValue: String? = nil,
        values: [String] = [], description: String? = nil, imageSlot: String? = nil, minimum: String? = nil,
        maximum: String? = nil
    ) {
        self.minimum = minimum
        self.maximum = maximum
        self.name = name
        self.kind = kind
        self.required = required
        self.defaultValue = defaultValue
        self.values = values
        self.description = description
        self.imageSlot = imageSlot
    }
}

/// What one tier value changes: top-level pass.json keys and images.
public struct TemplateTier: Sendable, Equatable {
    /// Top-level pass.json keys replaced for this tier (a JSON `null` removes the key). Placeholders in these
    /// values are substituted like those in pass.json.
    public var pass: [String: JSONValue]
    /// Pass file path (e.g. `strip.png`, `en.lproj/logo.png`) → source path inside the template folder.
    public var images: [String: String]

    public init(pass: [String: JSONValue] = [:], images: [String: String] = [:]) {
        self.pass = pass
        self.images = images
    }
}
