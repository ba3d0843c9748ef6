import PassModel

/// A loaded template: pass.json with `{{placeholders}}`, optional template.json (typed fields, tiers),
/// images and `xx.lproj` folders; or a Pass Designer `.pkpasstemplate` (folder or zipped), personalized by
/// pass field key, with a `tooling.json` that is read but never packed.
///
/// Every file is read once by `load(directory:)` (or handed over in a `TemplateSource`) and kept in memory, so rendering many passes never touches the
/// disk again and a template value can be shared freely between tasks.
///
/// Use: `let t = try Template.load(directory:)` once, then per record
/// `try t.render(t.resolve(record), context: RenderContext(serialNumber: …))`.
///
/// Placeholders: `{{name}}` or `{{ name }}` in pass.json string values, in tier `pass` overrides and in
/// pass.strings values — never in member names or pass.strings keys. `{{serialNumber}}` is always available.
/// A `{{` with no `}}` after it is literal text; `{{ … }}` around something that is not a name is an error.
/// Substitution walks the parsed JSON, so a value can never change the JSON's structure.
public struct Template: Sendable {
    /// The placeholder that is always available: the pass's serial number.
    public static let serialNumberPlaceholder = "serialNumber"
    /// Record keys `image.SLOT` (e.g. `image.thumbnail`) give a per-record image for the slot SLOT.
    public static let imageKeyPrefix = "image."
    /// Record keys that are not template fields: `serialNumber`, the barcode's message and alternative text (set on
    /// every barcode of the pass), the relevant period (`relevantDates`) and the `expirationDate`. See `ReservedKeys`. `image.SLOT`
    /// keys (`imageKeyPrefix`) are reserved too.
    public static let reservedKeys: [String] = [
        serialNumberPlaceholder, ReservedKeys.barcodeMessage, ReservedKeys.barcodeAltText,
        ReservedKeys.relevantDateStart, ReservedKeys.relevantDateEnd, ReservedKeys.expirationDate,
    ]

    /// The template's name as given to `load` (without a trailing `/`): the folder, or the zip file (and the
    /// folder inside it); file names in messages start with it.
    public let directory: String
    /// From template.json, plus one implicit field per placeholder when there is no template.json, plus (Pass
    /// Designer templates) one implicit field per pass field key that template.json does not declare.
    public let fields: [TemplateField]
    /// Fields personalized by pass field key: a value for one of these sets the `value` of every pass field with
    /// that key, in every style dictionary and field group (Pass Designer templates only; see `KeyFields`).
    public let keyFields: Set<String>
    /// `tiers.field`: the field whose value selects a tier.
    public let tierField: String?
    /// `tiers.values`: tier value → overrides.
    public let tiers: [String: TemplateTier]
    /// The template's pass.json, parsed leniently, placeholders still in place.
    public let passJSON: JSONValue
    /// What the lenient reader forgave in pass.json (report as `pass.json-lenient`).
    public let leniencies: [JSONLeniency]
    /// pass.json has a serialNumber string without placeholders.
    public let hasLiteralSerialNumber: Bool
    /// The folder has a template.json.
    public let hasTemplateJSON: Bool
    /// A Pass Designer template: named `*.pkpasstemplate` or holding a `tooling.json`.
    public let isDesignerTemplate: Bool
    /// The template's `tooling.json`, when it has one (never packed into a pass).
    public let tooling: ToolingManifest?
    /// Things worth telling the user that did not stop loading: skipped folders, template.json leniencies,
    /// unknown template.json keys, localizations with different keys.
    public let warnings: [String]
    /// The `xx.lproj` folder names, sorted.
    public let localizations: [String]
    /// The template's `google.json` (Google Wallet class and object fields that add to or override what is mapped
    /// from pass.json), placeholders still in place; never packed into a pass. Substitute with `substitute(_:_:)`.
    public let googleJSON: JSONValue?

    /// The file with a template's Google Wallet additions.
    public static let googleFile = "google.json"

    /// The fields' names, and each field's kind by name (the last field of a name wins): worked out once, read
    /// for every record resolved and every pass rendered.
    let fieldNames: Set<String>
    let fieldKinds: [String: TemplateField.Kind]

    /// Files copied into every pass, and pass.strings files (substituted per pass when they hold placeholders).
    let assets: [TemplateAsset]
    /// Tier image source path → bytes.
    let tierImages: [String: [UInt8]]

    /// Every file the template packs into passes, by its path in the template: top-level files and the files of
    /// `xx.lproj` folders (pass.strings aside), then the tier images by their source paths. For checks of their
    /// contents (images are held to the limits of member photos).
    public var packedFiles: [(path: String, bytes: [UInt8])] {
        let files = assets.compactMap { asset -> (path: String, bytes: [UInt8])? in
            guard case .file(let file) = asset else { return nil }
            return (file.path, file.bytes)
        }
        return files + tierImages.keys.sorted().map { ($0, tierImages[$0]!) }
    }

    /// `directory/pass.json`, for messages.
    public var passJSONFile: String { directory + "/pass.json" }
    /// `directory/template.json`, for messages.
    public var templateJSONFile: String { directory + "/template.json" }
    /// The file that declares the fields: template.json when present, else pass.json.
    var fieldsFile: String { hasTemplateJSON ? templateJSONFile : passJSONFile }
    /// tooling.json asks for the legacy fallback to be derived from `posterGeneric`.
    public var generatesCompatiblePass: Bool { tooling?.automaticallyGenerateCompatiblePass ?? false }

    /// `value` with its placeholders replaced by `record`'s values, as pass.json's are (a string that is exactly
    /// an integer or decimal field's placeholder becomes a JSON number); for documents beside pass.json such as
    /// `googleJSON`.
    public func substitute(_ value: JSONValue, _ record: ResolvedRecord, serialNumber: String) -> JSONValue {
        Substituter(values: record.values, kinds: fieldKinds, serialNumber: serialNumber).apply(value)
    }

    /// The file that makes a pass personalizable (rewards enrollment, wallet-spec §6).
    public static let personalizationFile = "personalization.json"

    /// The template carries `personalization.json`: its passes ask the holder to sign up (rewards enrollment).
    public var isPersonalizable: Bool { assets.contains { $0.path == Self.personalizationFile } }

    /// Files a personalized pass leaves out: Apple's personalized pass has no sign-up form left to show.
    static func isPersonalizationFile(_ path: String) -> Bool {
        path == personalizationFile || (path.hasPrefix("personalizationLogo") && path.hasSuffix(".png"))
    }
}

/// A file kept from the template folder.
enum TemplateAsset: Sendable {
    /// Copied byte for byte into every pass.
    case file(PassFile)
    /// A pass.strings file: re-encoded as UTF-16LE once, or per pass when values hold placeholders.
    case strings(LocalizedStrings)

    var path: String {
        switch self {
        case .file(let f): return f.path
        case .strings(let s): return s.path
        }
    }
}

/// One `xx.lproj/pass.strings`.
struct LocalizedStrings: Sendable {
    var path: String
    var entries: [(key: String, value: String)]
    /// The UTF-16LE output when no value has a placeholder (then it is the same for every pass).
    var sharedBytes: [UInt8]?
}
