import PassModel

/// Everything that can go wrong while loading a template, checking a record or rendering a pass.
/// Every message names the template file (as given to `Template.load`, e.g. `Templates/status/pass.json`),
/// the JSON path or field, and what to do about it.
public enum TemplateError: Error, CustomStringConvertible, Equatable {
    /// The template folder, or a file inside it, could not be read.
    case unreadable(path: String, reason: String)
    /// The folder has no `pass.json`.
    case missingPassJSON(directory: String)
    /// `pass.json` or `template.json` is not JSON, even read leniently.
    case invalidJSON(file: String, line: Int, column: Int, message: String)
    /// `template.json` is JSON but does not follow the template contract.
    case invalidTemplateJSON(file: String, path: String, message: String)
    /// `pass.json` has a shape no template can use (e.g. its top level is not an object).
    case invalidPassJSON(file: String, path: String, message: String)
    /// A `{{ … }}` whose content is not a field name.
    case malformedPlaceholder(file: String, path: String, text: String)
    /// A placeholder that names no field of `template.json`.
    case unknownPlaceholder(file: String, path: String, name: String, suggestion: String?)
    /// A tier image named in `template.json` does not exist.
    case missingTierImage(file: String, path: String, source: String)
    /// A required field has no value in the record and no default.
    case missingValue(field: String, file: String)
    /// A value does not have the field's type (integer, decimal, date, enum).
    case invalidValue(field: String, value: String, expected: String, file: String)
    /// The pass has no serial number: no literal one in pass.json and none given when rendering.
    case missingSerialNumber(file: String)
    /// A `pass.strings` file is malformed.
    case invalidStrings(file: String, line: Int, message: String)
    /// A record value holds a NUL or another control character (tab and line breaks aside).
    case controlCharacter(key: String, offset: Int, code: UInt32)
    /// A record key `image.SLOT` names no image slot.
    case unknownImageSlot(key: String, suggestion: String?)
    /// `tooling.json` (Pass Designer authoring metadata) is JSON but has a key of the wrong type.
    case invalidToolingJSON(file: String, path: String, message: String)
    /// A record key that is neither a field, a pass field key nor a reserved key (`Template.checkRecordKeys`).
    case unknownRecordKey(key: String, file: String, suggestion: String?, known: [String])
    /// A number field's value starts with `+` ("+10"): read as a number it would replace the value, while whoever
    /// wrote it most likely meant to add. Front ends word both ways of writing it (`Template.signedValueHint`).
    case signedValue(field: String, value: String, file: String)
    /// A number field's value (given, or the result of an addition) is outside its template.json bounds.
    case outOfRange(field: String, value: String, minimum: String?, maximum: String?, file: String)
    /// An amount was added to a key that is no integer or decimal field (`kind` nil: no field at all).
    case notANumberField(field: String, kind: TemplateField.Kind?, file: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): cannot read (\(reason)); check that the path exists and is readable"
        case .missingPassJSON(let directory):
            return "\(directory)/pass.json: missing; a template folder needs a pass.json at its top level"
        case .invalidJSON(let file, let line, let column, let message):
            return "\(file):\(line):\(column): invalid JSON: \(message); fix the file so it is valid JSON"
        case .invalidTemplateJSON(let file, let path, let message):
            return "\(file): \(path.isEmpty ? "" : "\(path): ")\(message)"
        case .invalidPassJSON(let file, let path, let message):
            return "\(file): \(path.isEmpty ? "" : "\(path): ")\(message)"
        case .malformedPlaceholder(let file, let path, let text):
            return "\(file): \(path): \(text) is not a valid placeholder; write {{name}} where name starts with a "
                + "letter or _ and holds only letters, digits, _ . and -"
        case .unknownPlaceholder(let file, let path, let name, let suggestion):
            let hint = suggestion.map { "; did you mean {{\($0)}}?" } ?? ""
            return "\(file): \(path): placeholder {{\(name)}} names no field of template.json\(hint) "
                + "Add a field \"\(name)\" to template.json or correct the placeholder"
        case .missingTierImage(let file, let path, let source):
            return "\(file): \(path): tier image \"\(source)\" does not exist in the template folder; "
                + "add the file or correct the path (relative to the template folder)"
        case .missingValue(let field, let file):
            return "\(file): field \"\(field)\" is required but the record has no value for it; "
                + "give it a value (\(field)=… in the record, or a \"\(field)\" column), or add a default to the field"
        case .invalidValue(let field, let value, let expected, let file):
            return "\(file): field \"\(field)\" has the value \"\(value)\", expected \(expected)"
        case .missingSerialNumber(let file):
            return "\(file): serialNumber: the pass has no serial number; give one when issuing (a serial number or a "
                + "serialNumber column) or put a literal serialNumber in pass.json"
        case .invalidStrings(let file, let line, let message):
            return "\(file):\(line): invalid pass.strings: \(message); each entry must read \"key\" = \"value\";"
        case .controlCharacter(let key, let offset, let code):
            let hex = String(code, radix: 16, uppercase: true)
            return
                "the value of \"\(key)\" holds the control character U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex) "
                + "at character \(offset); remove it (values may hold tabs and line breaks, no other control characters)"
        case .unknownImageSlot(let key, let suggestion):
            let hint = suggestion.map { "; did you mean \"image.\($0)\"?" } ?? ""
            return "\"\(key)\" names no image slot\(hint) (slots: "
                + ImageSlot.names.joined(separator: ", ") + ")"
        case .invalidToolingJSON(let file, let path, let message):
            return "\(file): \(path.isEmpty ? "" : "\(path): ")\(message)"
        case .unknownRecordKey(let key, let file, let suggestion, let known):
            let hint = suggestion.map { "; did you mean \"\($0)\"?" } ?? ""
            let list = known.isEmpty ? "the template has no fields" : "fields: " + known.joined(separator: ", ")
            return "\(file): \"\(key)\" is not a field of this template\(hint) (\(list); reserved keys: "
                + Template.reservedKeys.joined(separator: ", ") + ", image.SLOT); correct the key or remove it"
        case .signedValue(let field, let value, let file):
            let number = String(value.drop { $0 == " " || $0 == "+" })
            return "\(file): field \"\(field)\" has the value \"\(value)\": read as a number it would set \(field) to "
                + "\(number), not add \(number) to it; give \(number) to set the value, or give \(number) as an amount "
                + "to add"
        case .outOfRange(let field, let value, let minimum, let maximum, let file):
            let bounds = Self.bounds(minimum: minimum, maximum: maximum)
            return "\(file): field \"\(field)\" would be \(value), outside its bounds (\(bounds)); give a value "
                + "within them"
        case .notANumberField(let field, let kind, let file):
            guard let kind else {
                return "\(file): \"\(field)\" is not a field of this template; only integer and decimal fields can be "
                    + "added to"
            }
            return "\(file): field \"\(field)\" is of type \(kind.rawValue); only integer and decimal fields can be "
                + "added to (set its value instead)"
        }
    }

    /// "at least 0", "at most 100", "from 0 to 100".
    static func bounds(minimum: String?, maximum: String?) -> String {
        switch (minimum, maximum) {
        case (let low?, let high?): return "from \(low) to \(high)"
        case (let low?, nil): return "at least \(low)"
        case (nil, let high?): return "at most \(high)"
        case (nil, nil): return "none"
        }
    }
}
