import PassModel

/// One variant of a template's pass.json compiled once for many records: the bytes `JSONWriter` writes for it,
/// cut at every value that depends on the record (a hole), and the tree with those values still to fill.
/// `fill(_:context:)` gives what `Template.render` gives for a record of the variant, without walking or
/// writing the rest of the tree again.
///
/// A variant is a tier (or the base pass) and the context's choices that change the tree's keys: compatible
/// fallback, voided, a web service URL and token. Holes are leaves only, so every pass of a variant has the same
/// keys at every level. Templates the blueprint cannot express exactly give no blueprint (see `init`).
public struct PassBlueprint: Sendable {
    /// What selects a blueprint: the tier a record picks and the context's choices that change the keys.
    public struct Shape: Hashable, Sendable {
        let tier: String?
        let compatiblePass: Bool
        let voided: Bool
        let webServiceURL: Bool
        let authenticationToken: Bool
        let serialFromContext: Bool
    }

    /// A value below a top-level key; path steps from that key's value down.
    enum Step: Sendable {
        case member(String)
        case index(Int)
    }

    /// Where a hole's value comes from.
    indirect enum Source: Sendable {
        /// A string of the template with placeholders.
        case text([PlaceholderText.Segment])
        /// A pass field's value personalized by its key: the record's value when it has one, else `otherwise`.
        case keyField(String, otherwise: Source)
        /// A value that does not depend on the record (a key field's template value without placeholders).
        case constant(JSONValue)
        case serialNumber
        case webServiceURL
        case authenticationToken
    }

    struct Hole: Sendable {
        let key: String
        let path: [Step]
        let source: Source
    }

    /// The template's pass.json bytes between holes: `runs.count == holes.count + 1`, hole `order[i]` after
    /// `runs[i]`.
    private let runs: [[UInt8]]
    private let order: [Int]
    private let holes: [Hole]
    /// The tree with a marker where each hole goes.
    private let skeleton: [String: JSONValue]
    /// The template's own serialNumber, from which a record without one gets its serial.
    private let ownSerial: [String: JSONValue]
    private let template: Template
    private let tier: TemplateTier?
    private let tierName: String?
    /// What rendering says for every pass of the variant (identifiers replaced by the certificate's).
    private let warnings: [String]
    /// The top-level keys whose values differ from record to record.
    public let varyingKeys: Set<String>

    /// The variant of `template` that a record with `values` and `context` renders; nil when rendering that
    /// record changes more than leaf values (a reserved record key such as `barcode.message`, a pass field key
    /// with a placeholder, a personalized field without a value, an identifier from a placeholder) or when a
    /// template string could be mistaken for a hole.
    public init?(_ template: Template, values: [String: String], context: RenderContext) {
        guard !Self.changesKeys(values) else { return nil }
        self.template = template
        let tierName = template.tierField.flatMap { values[$0] }
        tier = tierName.flatMap { template.tiers[$0] }
        self.tierName = tier == nil ? nil : tierName
        var root = template.variantRoot(tier: tier, compatiblePass: context.compatiblePass)
        for key in ["passTypeIdentifier", "teamIdentifier"] {
            if let own = root[key]?.stringValue, PlaceholderText.mayContainPlaceholder(own) { return nil }
        }
        if context.serialNumber == nil {
            // The template's own serial must be one a record can make (checked as `render` does, per record).
            guard root["serialNumber"]?.stringValue != nil else { return nil }
        }
        ownSerial = root["serialNumber"].map { ["serialNumber": $0] } ?? [:]
        warnings = template.certificateIdentifiers(context, into: &root)
        if context.voided { root["voided"] = .bool(true) }

        var holes: [Hole] = []
        let marker = Self.markerPrefix
        func hole(_ key: String, _ path: [Step], _ source: Source) -> JSONValue {
            holes.append(Hole(key: key, path: path, source: source))
            return .string("\(marker)\(holes.count - 1)\u{2}\u{1}")
        }
        var skeleton: [String: JSONValue] = [:]
        var failed = false
        for (key, value) in root {
            switch key {
            case "serialNumber":
                skeleton[key] = hole(key, [], .serialNumber)
                continue
            case "webServiceURL" where context.webServiceURL != nil,
                "authenticationToken" where context.authenticationToken != nil:
                continue
            default:
                break
            }
            let isStyle = PassStyle(rawValue: key) != nil
            func walk(_ value: JSONValue, _ path: [Step]) -> JSONValue {
                switch value {
                case .string(let s):
                    if s.contains(marker) { failed = true }
                    guard let source = Self.text(s) else { return value }
                    return hole(key, path, source)
                case .array(let items):
                    return .array(items.enumerated().map { walk($1, path + [.index($0)]) })
                case .object(let members):
                    var keyField: String?
                    if isStyle, path.count == 2, case .member(let group) = path[0],
                        PassFieldGroup(rawValue: group) != nil, let fieldKey = members["key"]?.stringValue
                    {
                        // A pass field of a style's group, personalized by its key (`KeyFields`) when the record
                        // has a value for the key: its value is a hole, and its key must not vary.
                        if PlaceholderText.mayContainPlaceholder(fieldKey), !template.keyFields.isEmpty {
                            failed = true
                        }
                        if template.keyFields.contains(fieldKey) {
                            if members["value"] == nil { failed = true }
                            keyField = fieldKey
                        }
                    }
                    var out = members
                    for (name, member) in members {
                        if let keyField, name == "value" {
                            let otherwise = Self.text(member.stringValue ?? "") ?? .constant(member)
                            out[name] = hole(key, path + [.member(name)], .keyField(keyField, otherwise: otherwise))
                        } else {
                            out[name] = walk(member, path + [.member(name)])
                        }
                    }
                    return .object(out)
                case .null, .bool, .integer, .double:
                    return value
                }
            }
            skeleton[key] = walk(value, [])
        }
        if context.webServiceURL != nil { skeleton["webServiceURL"] = hole("webServiceURL", [], .webServiceURL) }
        if context.authenticationToken != nil {
            skeleton["authenticationToken"] = hole("authenticationToken", [], .authenticationToken)
        }
        guard !failed, let (runs, order) = Self.cut(JSONWriter.serialize(.object(skeleton)), holes: holes.count)
        else { return nil }
        self.runs = runs
        self.order = order
        self.holes = holes
        self.skeleton = skeleton
        varyingKeys = Set(holes.map(\.key))
    }

    /// The shape a record with `values` and `context` renders, to find its blueprint.
    public static func shape(of template: Template, values: [String: String], context: RenderContext) -> Shape {
        let tierName = template.tierField.flatMap { values[$0] }
        return Shape(
            tier: tierName.flatMap { template.tiers[$0] == nil ? nil : $0 },
            compatiblePass: context.compatiblePass, voided: context.voided,
            webServiceURL: context.webServiceURL != nil, authenticationToken: context.authenticationToken != nil,
            serialFromContext: context.serialNumber != nil)
    }

    /// True when rendering a record with `values` changes keys of the tree, not only values (reserved keys).
    public static func changesKeys(_ values: [String: String]) -> Bool {
        values[ReservedKeys.barcodeMessage] != nil || values[ReservedKeys.barcodeAltText] != nil
            || values[ReservedKeys.relevantDateStart] != nil
            || values[ReservedKeys.relevantDateEnd] != nil
            || values[ReservedKeys.expirationDate] != nil
    }

    /// The pass of a record of this variant: pass.json as `JSONWriter.serialize` writes `Template.render`'s tree,
    /// that tree, and the rest of `render`'s result.
    /// - Throws: `TemplateError.missingSerialNumber` as `render` does.
    public func fill(
        _ record: ResolvedRecord, context: RenderContext
    ) throws(TemplateError) -> (passJSON: [UInt8], rendered: RenderedPass) {
        let serial = try template.serialNumber(record, context: context, root: ownSerial)
        let substituter = Substituter(values: record.values, kinds: template.fieldKinds, serialNumber: serial)
        func value(_ source: Source) -> JSONValue {
            switch source {
            case .text(let segments): return substituter.value(of: segments)
            case .keyField(let key, let otherwise):
                guard let text = record.values[key] else { return value(otherwise) }
                return KeyFields.json(text, kind: template.fieldKinds[key])
            case .constant(let constant): return constant
            case .serialNumber: return .string(serial)
            case .webServiceURL: return .string(context.webServiceURL ?? "")
            case .authenticationToken: return .string(context.authenticationToken ?? "")
            }
        }
        let values = holes.map { value($0.source) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(runs.reduce(64 * holes.count) { $0 + $1.count })
        for (run, index) in zip(runs, order) {
            bytes += run
            JSONWriter.append(values[index], to: &bytes)
        }
        bytes += runs[runs.count - 1]

        var root = skeleton
        var byKey: [String: JSONValue] = [:]
        for (hole, filled) in zip(holes, values) {
            if hole.path.isEmpty {
                root[hole.key] = filled
                continue
            }
            var top = byKey[hole.key] ?? skeleton[hole.key]!
            top.set(hole.path[...], to: filled)
            byKey[hole.key] = top
        }
        for (key, value) in byKey { root[key] = value }
        let (files, variant) = template.files(
            tier: tier, tierName: tierName, substituter: substituter, context: context)
        return (
            bytes,
            RenderedPass(
                passJSON: .object(root), files: files, warnings: record.warnings + warnings, variant: variant)
        )
    }

    /// A string's substitution, or nil when it has no placeholder (it is written as it is).
    private static func text(_ s: String) -> Source? {
        guard PlaceholderText.mayContainPlaceholder(s), case .success(let segments) = PlaceholderText.segments(s),
            segments.contains(where: { if case .placeholder = $0 { return true } else { return false } })
        else { return nil }
        return .text(segments)
    }

    /// Control characters no template string is expected to hold; a template that does gets no blueprint.
    private static let markerPrefix = "\u{1}\u{2}passmint-hole-"

    /// `bytes` cut at each marker: the runs between them and the hole each marker names, or nil unless every
    /// hole appears exactly once.
    private static func cut(_ bytes: [UInt8], holes count: Int) -> (runs: [[UInt8]], order: [Int])? {
        var written: [UInt8] = []
        JSONWriter.writeString(markerPrefix, into: &written)
        let open = Array(written.dropLast())  // the quote, the escaped prefix
        var close: [UInt8] = []
        JSONWriter.writeString("\u{2}\u{1}", into: &close)
        close.removeFirst()  // the escaped suffix, the quote
        var runs: [[UInt8]] = []
        var order: [Int] = []
        var seen = Set<Int>()
        var start = 0
        var i = 0
        while i + open.count <= bytes.count {
            guard bytes[i] == open[0], bytes[i..<(i + open.count)].elementsEqual(open) else {
                i += 1
                continue
            }
            var j = i + open.count
            var number = 0
            var digits = 0
            while j < bytes.count, bytes[j] >= 0x30, bytes[j] <= 0x39, digits < 9 {
                number = number * 10 + Int(bytes[j] - 0x30)
                j += 1
                digits += 1
            }
            guard digits > 0, j + close.count <= bytes.count, bytes[j..<(j + close.count)].elementsEqual(close),
                number < count, seen.insert(number).inserted
            else { return nil }
            runs.append(Array(bytes[start..<i]))
            order.append(number)
            i = j + close.count
            start = i
        }
        guard seen.count == count else { return nil }
        runs.append(Array(bytes[start...]))
        return (runs, order)
    }
}

extension JSONValue {
    /// Sets the value at `path`, which exists (the blueprint's skeleton has every key of the pass).
    fileprivate mutating func set(_ path: ArraySlice<PassBlueprint.Step>, to value: JSONValue) {
        guard let step = path.first else {
            self = value
            return
        }
        switch (self, step) {
        case (.object(var members), .member(let name)):
            self = .null
            members[name]?.set(path.dropFirst(), to: value)
            self = .object(members)
        case (.array(var items), .index(let index)) where items.indices.contains(index):
            self = .null
            items[index].set(path.dropFirst(), to: value)
            self = .array(items)
        default:
            break
        }
    }
}
