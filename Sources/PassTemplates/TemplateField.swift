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

    public init(
        name: String, kind: Kind = .string, required: Bool = false, defaultValue: String? = nil,
        values: [String] = [], description: String? = nil, imageSlot: String? = nil
    ) {
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
