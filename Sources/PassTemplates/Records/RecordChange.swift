/// A change to a stored record: values that replace and amounts added to number fields. An addition is resolved
/// against the record as it is when the change is applied (inside the store's transaction), so two additions made
/// at the same moment both count.
public struct RecordChange: Sendable, Equatable {
    /// Record key → new value, as given (`tier` → `Gold`).
    public var values: [String: String]
    /// Integer or decimal field → the amount to add to it, as given (`points` → `10`; negative subtracts).
    public var amounts: [String: String]

    public init(values: [String: String] = [:], amounts: [String: String] = [:]) {
        self.values = values
        self.amounts = amounts
    }

    /// Neither a value nor an amount.
    public var isEmpty: Bool { values.isEmpty && amounts.isEmpty }
}

extension Template {
    /// `record` with `change` applied, not yet resolved (`resolve` then checks types and bounds): each set value
    /// replaces the record's; each amount is added to the record's value of the field (its default when the record
    /// has none, else 0). A decimal result keeps the longer fraction (12.50 + 1.5 = 14.00).
    /// - Throws: `TemplateError.notANumberField` when an amount names no integer or decimal field,
    ///   `.invalidValue` for an amount that is no number of the field's kind or a key both set and added,
    ///   `.outOfRange` for an integer result beyond 64 bits.
    public func applying(_ change: RecordChange, to record: [String: String]) throws(TemplateError) -> [String: String]
    {
        var result = record.merging(change.values) { _, new in new }
        for name in change.amounts.keys.sorted() {
            let amount = change.amounts[name]!
            guard let field = fields.first(where: { $0.name == name }), field.isNumber else {
                throw .notANumberField(field: name, kind: fields.first { $0.name == name }?.kind, file: fieldsFile)
            }
            guard change.values[name] == nil else {
                throw .invalidValue(
                    field: name, value: change.values[name]!, expected: "a value to set or an amount to add, not both",
                    file: fieldsFile)
            }
            let kindExample = field.kind == .integer ? "10 or -5" : "2.50 or -1.25"
            guard case .success(let text) = FieldValue.normalize(amount, for: field), let delta = DecimalNumber(text)
            else {
                throw .invalidValue(
                    field: name, value: amount, expected: "an amount to add such as \(kindExample)", file: fieldsFile)
            }
            let currentText = record[name].flatMap { $0.isEmpty ? nil : $0 } ?? field.defaultValue ?? "0"
            guard case .success(let normalized) = FieldValue.normalize(currentText, for: field),
                let current = DecimalNumber(normalized)
            else {
                throw .invalidValue(
                    field: name, value: currentText, expected: "a number to add to (the stored value is not one)",
                    file: fieldsFile)
            }
            let sum = (current + delta).text
            if field.kind == .integer, FieldValue.integer(Substring(sum)) == nil {
                throw .outOfRange(
                    field: name, value: sum, minimum: String(Int64.min), maximum: String(Int64.max), file: fieldsFile)
            }
            result[name] = sum
        }
        return result
    }
}
