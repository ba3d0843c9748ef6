import PassModel

/// The parsed content of `template.json`: typed fields and tiers.
struct TemplateManifest: Sendable {
    var fields: [TemplateField] = []
    var tierField: String?
    var tiers: [String: TemplateTier] = [:]
    var warnings: [String] = []

    /// Keys a tier may not override: the serial number comes from issuance, not from a tier.
    static let tierForbiddenKeys: Set<String> = ["serialNumber"]
    /// File names a tier image may not replace.
    static let reservedFiles: Set<String> = [
        "pass.json", "manifest.json", "signature", "template.json", "pass.strings",
    ]

    /// Checks `value` against the template.json contract.
    /// - Throws: `TemplateError.invalidTemplateJSON` naming `file` and the JSON path.
    static func parse(_ value: JSONValue, file: String) throws(TemplateError) -> TemplateManifest {
        var manifest = TemplateManifest()
        guard let root = value.objectValue else {
            throw .invalidTemplateJSON(
                file: file, path: "",
                message: "the top level must be an object with "
                    + "\"fields\" and optionally \"tiers\", found \(value.kindName)")
        }
        manifest.warnUnknown(root, known: ["fields", "tiers", "description", "name", "$schema"], path: "", file: file)
        if let fields = root["fields"] {
            guard let items = fields.arrayValue else {
                throw .invalidTemplateJSON(file: file, path: "fields", message: "must be an array of field objects")
            }
            for (i, item) in items.enumerated() {
                let field = try manifest.parseField(item, path: TemplatePath.index("fields", i), file: file)
                if manifest.fields.contains(where: { $0.name == field.name }) {
                    throw .invalidTemplateJSON(
                        file: file, path: TemplatePath.index("fields", i) + ".name",
                        message: "field \"\(field.name)\" is declared twice; field names must be unique")
                }
                manifest.fields.append(field)
            }
        }
        if let tiers = root["tiers"] { try manifest.parseTiers(tiers, file: file) }
        return manifest
    }

    mutating func warnUnknown(_ object: [String: JSONValue], known: Set<String>, path: String, file: String) {
        for key in object.keys.sorted() where !known.contains(key) {
            warnings.append(
                "\(file): \(TemplatePath.member(path, key)): unknown key, ignored (known keys: "
                    + known.filter { $0 != "$schema" }.sorted().joined(separator: ", ") + ")")
        }
    }

    mutating func parseField(_ value: JSONValue, path: String, file: String) throws(TemplateError) -> TemplateField {
        guard let object = value.objectValue else {
            throw .invalidTemplateJSON(file: file, path: path, message: "a field must be an object with a \"name\"")
        }
        warnUnknown(
            object,
            known: ["name", "type", "required", "default", "values", "description", "image", "minimum", "maximum"],
            path: path, file: file)
        guard let name = object["name"]?.stringValue else {
            throw .invalidTemplateJSON(file: file, path: path + ".name", message: "every field needs a string \"name\"")
        }
        guard PlaceholderText.isName(name) else {
            throw .invalidTemplateJSON(
                file: file, path: path + ".name",
                message: "\"\(name)\" is not a valid field "
                    + "name; start with a letter or _ and use only letters, digits, _ . and -")
        }
        guard name != Template.serialNumberPlaceholder else {
            throw .invalidTemplateJSON(
                file: file, path: path + ".name",
                message: "\"serialNumber\" is reserved: "
                    + "the serial number is given when issuing (a serial number or a serialNumber column); remove this field"
            )
        }
        guard !Template.isReservedKey(name) else {
            throw .invalidTemplateJSON(
                file: file, path: path + ".name",
                message: "\"\(name)\" is a reserved record "
                    + "key (\(Template.reservedKeys.dropFirst().joined(separator: ", ")), image.SLOT), not a field; rename the field"
            )
        }
        var field = TemplateField(name: name)
        if let type = object["type"] {
            guard let text = type.stringValue, let kind = TemplateField.Kind(rawValue: text) else {
                throw .invalidTemplateJSON(
                    file: file, path: path + ".type",
                    message: "type must be one of "
                        + TemplateField.Kind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            field.kind = kind
        }
        if let required = object["required"] {
            guard let flag = required.boolValue else {
                throw .invalidTemplateJSON(file: file, path: path + ".required", message: "must be true or false")
            }
            field.required = flag
        }
        if let description = object["description"] {
            guard let text = description.stringValue else {
                throw .invalidTemplateJSON(file: file, path: path + ".description", message: "must be a string")
            }
            field.description = text
        }
        if let values = object["values"] {
            guard let items = values.arrayValue, !items.isEmpty,
                case let strings = items.compactMap(\.stringValue), strings.count == items.count,
                Set(strings).count == strings.count, !strings.contains("")
            else {
                throw .invalidTemplateJSON(
                    file: file, path: path + ".values",
                    message: "must be a non-empty array "
                        + "of distinct, non-empty strings")
            }
            if field.kind == .enum {
                field.values = strings
            } else {
                warnings.append(
                    "\(file): \(path).values: ignored because the field's type is "
                        + "\(field.kind.rawValue), not enum")
            }
        }
        if let slot = object["image"] {
            guard let text = slot.stringValue, ImageSlot.names.contains(text) else {
                throw .invalidTemplateJSON(
                    file: file, path: path + ".image",
                    message: "must name an image slot: "
                        + ImageSlot.names.joined(separator: ", "))
            }
            if field.kind == .image {
                field.imageSlot = text
            } else {
                warnings.append(
                    "\(file): \(path).image: ignored because the field's type is "
                        + "\(field.kind.rawValue), not image")
            }
        }
        if field.kind == .image, field.imageSlot == nil {
            throw .invalidTemplateJSON(
                file: file, path: path + ".image",
                message: "an image field needs \"image\": "
                    + "the slot it fills, one of " + ImageSlot.names.joined(separator: ", "))
        }
        if field.kind == .enum, field.values.isEmpty {
            throw .invalidTemplateJSON(
                file: file, path: path + ".values",
                message: "an enum field needs \"values\": "
                    + "the list of allowed values")
        }
        try parseBounds(object, into: &field, path: path, file: file)
        if let def = object["default"] {
            let raw: String
            switch def {
            case .string(let s): raw = s
            case .integer(let i): raw = String(i)
            case .double(let d): raw = String(d)
            default:
                throw .invalidTemplateJSON(file: file, path: path + ".default", message: "must be a string or a number")
            }
            switch FieldValue.normalize(raw, for: field) {
            case .success(let v):
                guard FieldValue.isWithinBounds(v, of: field) else {
                    throw .invalidTemplateJSON(
                        file: file, path: path + ".default",
                        message: "\(v) is outside the field's bounds "
                            + "(\(TemplateError.bounds(minimum: field.minimum, maximum: field.maximum)))")
                }
                field.defaultValue = v
            case .failure(let expected):
                throw .invalidTemplateJSON(
                    file: file, path: path + ".default",
                    message: "\"\(raw)\" is not a valid "
                        + "\(field.kind.rawValue) value; expected \(expected.text)")
            }
        }
        return field
    }

    /// `minimum` and `maximum` of an integer or decimal field: numbers (or number strings) of the field's kind,
    /// the minimum not above the maximum. Ignored with a warning on other kinds.
    mutating func parseBounds(
        _ object: [String: JSONValue], into field: inout TemplateField, path: String, file: String
    )
        throws(TemplateError)
    {
        for key in ["minimum", "maximum"] {
            guard let value = object[key] else { continue }
            guard field.isNumber else {
                warnings.append(
                    "\(file): \(path).\(key): ignored because the field's type is \(field.kind.rawValue), not integer or "
                        + "decimal")
                continue
            }
            let raw: String
            switch value {
            case .integer(let i): raw = String(i)
            case .double(let d): raw = String(d)
            case .string(let s): raw = s
            default:
                throw .invalidTemplateJSON(file: file, path: "\(path).\(key)", message: "must be a number")
            }
            guard case .success(let bound) = FieldValue.normalize(raw, for: field) else {
                throw .invalidTemplateJSON(
                    file: file, path: "\(path).\(key)",
                    message: "\"\(raw)\" is not a valid \(field.kind.rawValue) value")
            }
            if key == "minimum" { field.minimum = bound } else { field.maximum = bound }
        }
        if let low = field.minimum.flatMap(DecimalNumber.init), let high = field.maximum.flatMap(DecimalNumber.init),
            DecimalNumber.compare(low, high) > 0
        {
            throw .invalidTemplateJSON(
                file: file, path: path + ".minimum",
                message: "\(field.minimum!) is above the maximum \(field.maximum!); swap them")
        }
    }

    mutating func parseTiers(_ value: JSONValue, file: String) throws(TemplateError) {
        guard let object = value.objectValue else {
            throw .invalidTemplateJSON(
                file: file, path: "tiers", message: "must be an object with \"field\" and \"values\"")
        }
        warnUnknown(object, known: ["field", "values"], path: "tiers", file: file)
        guard let name = object["field"]?.stringValue else {
            throw .invalidTemplateJSON(
                file: file, path: "tiers.field",
                message: "must name the field that selects "
                    + "the tier, e.g. \"tier\"")
        }
        guard let field = fields.first(where: { $0.name == name }) else {
            throw .invalidTemplateJSON(
                file: file, path: "tiers.field",
                message: "\"\(name)\" is not a declared field; "
                    + "add it to \"fields\" (usually as an enum)")
        }
        tierField = name
        guard let values = (object["values"] ?? .object([:])).objectValue else {
            throw .invalidTemplateJSON(
                file: file, path: "tiers.values",
                message: "must be an object: tier value → "
                    + "{\"pass\": {…}, \"images\": {…}}")
        }
        for tierName in values.keys.sorted() {
            let path = TemplatePath.member("tiers.values", tierName)
            if field.kind == .enum, !field.values.contains(tierName) {
                throw .invalidTemplateJSON(
                    file: file, path: path,
                    message: "\"\(tierName)\" is not one of the values "
                        + "of the enum field \"\(name)\" (\(field.values.joined(separator: ", ")))")
            }
            tiers[tierName] = try parseTier(values[tierName]!, path: path, file: file)
        }
    }

    mutating func parseTier(_ value: JSONValue, path: String, file: String) throws(TemplateError) -> TemplateTier {
        guard let object = value.objectValue else {
            throw .invalidTemplateJSON(
                file: file, path: path, message: "must be an object with \"pass\" and/or \"images\"")
        }
        warnUnknown(object, known: ["pass", "images"], path: path, file: file)
        var tier = TemplateTier()
        if let pass = object["pass"] {
            guard let keys = pass.objectValue else {
                throw .invalidTemplateJSON(
                    file: file, path: path + ".pass",
                    message: "must be an object of top-level "
                        + "pass.json keys, e.g. {\"backgroundColor\": \"rgb(150, 112, 28)\"}")
            }
            for key in keys.keys where Self.tierForbiddenKeys.contains(key) {
                throw .invalidTemplateJSON(
                    file: file, path: TemplatePath.member(path + ".pass", key),
                    message: "a tier cannot change \(key); remove it")
            }
            tier.pass = keys
        }
        if let images = object["images"] {
            guard let map = images.objectValue else {
                throw .invalidTemplateJSON(
                    file: file, path: path + ".images",
                    message: "must be an object: pass file "
                        + "name → image path in the template folder, e.g. {\"strip.png\": \"tiers/gold/strip.png\"}")
            }
            for (dest, source) in map {
                let entry = TemplatePath.member(path + ".images", dest)
                guard Self.isValidDestination(dest) else {
                    throw .invalidTemplateJSON(
                        file: file, path: entry,
                        message: "\"\(dest)\" is not a file a pass can "
                            + "hold; use a top-level image name such as strip.png or xx.lproj/strip.png")
                }
                guard let src = source.stringValue, Self.isValidSource(src) else {
                    throw .invalidTemplateJSON(
                        file: file, path: entry,
                        message: "must be a relative path inside the "
                            + "template folder, without .. (e.g. \"tiers/gold/strip.png\")")
                }
                tier.images[dest] = src
            }
        }
        return tier
    }

    static func isValidDestination(_ dest: String) -> Bool {
        let parts = dest.split(separator: "/", omittingEmptySubsequences: false)
        guard let name = parts.last, !name.isEmpty, !name.hasPrefix("."), !reservedFiles.contains(String(name))
        else { return false }
        if parts.count == 1 { return true }
        return parts.count == 2 && parts[0].hasSuffix(".lproj") && parts[0].count > 6
    }

    static func isValidSource(_ src: String) -> Bool {
        guard !src.isEmpty, !src.hasPrefix("/") else { return false }
        return src.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0 != ".." && $0 != "."
        }
    }
}
