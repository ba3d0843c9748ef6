import PassModel

/// Record keys that are not template fields but set parts of the pass directly. They are checked by
/// `Template.resolve(_:)`, kept in `ResolvedRecord.values` (so a stored record re-renders the same pass) and
/// applied by `Template.render(_:context:)` after placeholders and personalization by key:
///
/// - `barcode.message`, `barcode.altText`: set on every barcode of the pass (each `barcodes` entry and the
///   deprecated `barcode`), other barcode keys kept. A pass without a barcode ignores them with a warning.
/// - `relevantDate.start`, `relevantDate.end`: ISO 8601 dates (typed like date fields) that replace
///   `relevantDates` with one entry, `{"startDate", "endDate"}`, or `{"date"}` for a lone start; a deprecated
///   top-level `relevantDate` in the template is replaced by the start too. An end without a start is an error.
/// - `expirationDate`: an ISO 8601 date that replaces pass.json's `expirationDate` (Wallet shows the pass as
///   expired after it); an empty value keeps the template's.
/// - `serialNumber` and `image.SLOT` are reserved as well, handled by the issuer and `ResolvedRecord.images`.
public enum ReservedKeys {
    public static let barcodeMessage = "barcode.message"
    public static let barcodeAltText = "barcode.altText"
    public static let relevantDateStart = "relevantDate.start"
    public static let relevantDateEnd = "relevantDate.end"
    public static let expirationDate = "expirationDate"

    /// The reserved keys of `record`, checked and normalised (dates as `FieldValue.date`); empty values dropped.
    static func resolve(_ record: [String: String], file: String) throws(TemplateError) -> [String: String] {
        var out: [String: String] = [:]
        for key in [barcodeMessage, barcodeAltText] {
            if let value = record[key], !value.isEmpty { out[key] = value }
        }
        for key in [relevantDateStart, relevantDateEnd, expirationDate] {
            guard let raw = record[key], !raw.isEmpty else { continue }
            guard let date = FieldValue.date(FieldValue.trimmed(raw)) else {
                throw .invalidValue(
                    field: key, value: raw,
                    expected: "an ISO 8601 date such as "
                        + "2027-06-12T19:30:00+02:00, 2027-06-12T19:30Z or 2027-06-12", file: file)
            }
            out[key] = date
        }
        if let end = out[relevantDateEnd], out[relevantDateStart] == nil {
            throw .invalidValue(
                field: relevantDateEnd, value: end,
                expected: "a relevantDate.start as well (a "
                    + "relevant period needs its start; give only relevantDate.start for a single date)", file: file)
        }
        return out
    }

    /// Writes the reserved values of `values` into `root`.
    static func apply(
        _ values: [String: String], to root: inout [String: JSONValue], file: String,
        warnings: inout [String]
    ) {
        var barcodeKeys: [(String, String)] = []
        if let message = values[barcodeMessage] { barcodeKeys.append(("message", message)) }
        if let altText = values[barcodeAltText] { barcodeKeys.append(("altText", altText)) }
        if !barcodeKeys.isEmpty {
            func set(_ barcode: JSONValue) -> JSONValue {
                guard var object = barcode.objectValue else { return barcode }
                for (key, value) in barcodeKeys { object[key] = .string(value) }
                return .object(object)
            }
            var found = false
            if let items = root["barcodes"]?.arrayValue, !items.isEmpty {
                root["barcodes"] = .array(items.map(set))
                found = true
            }
            if let single = root["barcode"], single.objectValue != nil {
                root["barcode"] = set(single)
                found = true
            }
            if !found {
                let keys = barcodeKeys.map { "barcode.\($0.0)" }.joined(separator: " and ")
                warnings.append(
                    "\(file): the pass has no barcode, so \(keys) changes nothing; add a \"barcodes\" "
                        + "entry to pass.json or leave the key out")
            }
        }
        if let start = values[relevantDateStart] {
            var entry: [String: JSONValue] = [:]
            if let end = values[relevantDateEnd] {
                entry["startDate"] = .string(start)
                entry["endDate"] = .string(end)
            } else {
                entry["date"] = .string(start)
            }
            root["relevantDates"] = .array([.object(entry)])
            if root["relevantDate"] != nil { root["relevantDate"] = .string(start) }
        }
        if let expiration = values[expirationDate] { root["expirationDate"] = .string(expiration) }
    }
}

extension Template {
    /// True for a record key that is reserved (`reservedKeys` or `image.SLOT`), never a template field.
    public static func isReservedKey(_ key: String) -> Bool {
        reservedKeys.contains(key) || key.hasPrefix(imageKeyPrefix)
    }

    /// Every record key this template takes: its fields and the reserved keys (`image.SLOT` aside), for
    /// header checks and did-you-mean hints.
    public var recordKeys: [String] { fields.map(\.name) + Template.reservedKeys }

    /// The field or reserved key `key` is most likely a typo of, for did-you-mean hints; nil when none is close.
    public func suggestion(forRecordKey key: String) -> String? {
        NearMiss.suggestion(for: key, in: recordKeys)
    }

    /// Fails on the first key of `record` that is neither a field, a pass field key nor a reserved key, with a
    /// did-you-mean. (`resolve(_:)` only warns about such keys, so a stored record still renders after a field
    /// was removed from the template.)
    /// - Throws: `TemplateError.unknownRecordKey`.
    public func checkRecordKeys(_ record: [String: String]) throws(TemplateError) {
        let known = Set(fields.map(\.name))
        for key in record.keys.sorted() where !known.contains(key) && !Template.isReservedKey(key) {
            throw .unknownRecordKey(
                key: key, file: fieldsFile, suggestion: suggestion(forRecordKey: key),
                known: fields.map(\.name))
        }
    }
}
