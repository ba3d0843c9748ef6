import PassModel

extension Template {
    /// Checks and types one record (`--set` values, a CSV row, a stored pass's data).
    ///
    /// - Keys that are not fields (and not reserved, see `ReservedKeys`) are ignored with a warning;
    ///   `checkRecordKeys(_:)` makes them an error instead.
    /// - Reserved keys are checked and kept in `values` (`relevantDate.*` normalised like dates); `image.SLOT`
    ///   keys go to `images`.
    /// - An empty value counts as no value: the default applies, or a required field fails.
    /// - integer: `[+-]digits` within 64 bits → canonical digits. decimal: `[+-]digits[.digits]` → no `+`, no
    ///   leading zeros, fraction kept as written. Surrounding spaces are ignored for both and for dates.
    /// - date: `YYYY-MM-DDTHH:MM[:SS](Z|±HH:MM|±HHMM)` → `YYYY-MM-DDTHH:MM:SS±HH:MM` (`Z` for a zero offset);
    ///   a bare `YYYY-MM-DD` means midnight UTC, `YYYY-MM-DDT00:00:00Z`. Calendar ranges are checked.
    /// - enum: exactly one of the declared values (case-sensitive; a near miss is suggested).
    /// - A number field's value may not start with `+` (it reads as a wish to add), and must lie within the field's
    ///   `minimum` and `maximum`.
    /// - Throws: `TemplateError.missingValue` naming the field, `.invalidValue` naming field, value and the
    ///   expected form, `.signedValue` for `+10`, `.outOfRange` naming the bounds.
    public func resolve(_ record: [String: String]) throws(TemplateError) -> ResolvedRecord {
        // A NUL or other control character is never data a pass shows (tab and line breaks aside); a CSV reader
        // refuses it too, this covers --set, --data, updates and the admin API.
        // Keys are sorted only when there is something to report or keep in order (rarely): this runs for every
        // record of a batch.
        if let (key, offset, scalar) = record.compactMap({ key, value in
            Self.controlCharacter(in: value).map { (key, $0.0, $0.1) }
        }).min(by: { $0.0 < $1.0 }) {
            throw .controlCharacter(key: key, offset: offset, code: scalar)
        }
        var warnings: [String] = []
        let known = fieldNames
        var images: [String: String] = [:]
        for key in record.keys.filter({ $0.hasPrefix(Template.imageKeyPrefix) }).sorted() {
            let slot = String(key.dropFirst(Template.imageKeyPrefix.count))
            guard ImageSlot.names.contains(slot) else {
                throw .unknownImageSlot(key: key, suggestion: NearMiss.suggestion(for: slot, in: ImageSlot.names))
            }
            if let path = record[key], !path.isEmpty { images[slot] = path }
        }
        for key in record.keys.filter({ !known.contains($0) && !Template.isReservedKey($0) }).sorted() {
            let names = fields.map(\.name)
            var text = "\(fieldsFile): \"\(key)\" is not a field of this template and is ignored"
            if let near = NearMiss.suggestion(for: key, in: recordKeys) { text += "; did you mean \"\(near)\"?" }
            text += names.isEmpty ? " (the template has no fields)" : " (fields: \(names.joined(separator: ", ")))"
            warnings.append(text)
        }
        var values = try ReservedKeys.resolve(record, file: fieldsFile)
        if let serial = record[Template.serialNumberPlaceholder], !serial.isEmpty {
            values[Template.serialNumberPlaceholder] = serial
        }
        for field in fields {
            guard let raw = record[field.name], !raw.isEmpty else {
                if field.kind == .image, let slot = field.imageSlot, let value = field.defaultValue {
                    if images[slot] == nil { images[slot] = value }
                } else if let value = field.defaultValue {
                    values[field.name] = value
                } else if field.required {
                    throw .missingValue(field: field.name, file: fieldsFile)
                }
                continue
            }
            if field.kind == .image, let slot = field.imageSlot {
                // An `image.SLOT` key of the record wins over an image field for the same slot.
                if images[slot] == nil { images[slot] = raw }
                continue
            }
            if field.isNumber, FieldValue.trimmed(raw).first == "+" {
                throw .signedValue(field: field.name, value: raw, file: fieldsFile)
            }
            switch FieldValue.normalize(raw, for: field) {
            case .success(let value):
                guard FieldValue.isWithinBounds(value, of: field) else {
                    throw .outOfRange(
                        field: field.name, value: value, minimum: field.minimum, maximum: field.maximum,
                        file: fieldsFile)
                }
                values[field.name] = value
            case .failure(let expected):
                throw .invalidValue(field: field.name, value: raw, expected: expected.text, file: fieldsFile)
            }
        }
        return ResolvedRecord(values: values, warnings: warnings, images: images)
    }
}

extension Template {
    /// The first control character of `value` other than tab, CR and LF: its 1-based character offset and code.
    static func controlCharacter(in value: String) -> (Int, UInt32)? {
        // Every such character is ASCII, and no byte of a multi-byte UTF-8 sequence is: the bytes tell whether
        // there is one (checked for every value of every record); only then are characters counted.
        guard value.utf8.contains(where: { ValueCharacters.isForbiddenControl(UInt32($0)) }) else { return nil }
        for (index, scalar) in value.unicodeScalars.enumerated() {
            if ValueCharacters.isForbiddenControl(scalar.value) { return (index + 1, scalar.value) }
        }
        return nil
    }
}
