import PassModel

/// One variant of a template's pass.json compiled once for many records: the bytes `JSONWriter` writes for it,
/// cut at every value that depends on the record (a hole), and the tree with those values still to fill.
/// `fill(_:context:)` gives what `Template.render` gives for a record of the variant, without walking or
/// writing the rest of the tree again.
///
/// A variant is a tier (or the base pass) and the context's choices that change the tree's keys: compatible
/// fallback, voided, a web service URL and token. Holes are leaves only, so every pass of a variant has the same
/// keys at every level. Templates the blueprint cannot express exactly give no blueprint (see `init`).
///
/// A class: every worker reads one blueprint for every pass, and reading a struct's fields would retain each of
/// them, from several threads at once.
public final class PassBlueprint: Sendable {
    /// What selects a blueprint: the tier a record picks and the context's choices that change the keys.
    public struct Shape: Hashable, Sendable {
        let tier: String?
        let compatiblePass: Bool
        let voided: Bool
        let webServiceURL: Bool
        let authenticationToken: Bool
        let serialFromContext: Bool
        let personalized: Bool
    }

    /// A value below a top-level key; path steps from that key's value down.
    enum Step: Sendable, Equatable {
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

    /// The template's pass.json bytes between holes, in one buffer: `runs.count == holes.count + 1`, hole
    /// `order[i]` after `runs[i]`.
    private let written: [UInt8]
    private let runs: [Range<Int>]
    private let order: [Int]
    /// Where each hole's value comes from, by hole.
    private let sources: [Source]
    /// The tree with a marker where each hole goes.
    private let skeleton: [String: JSONValue]
    /// The holes of each varying top-level key, over the skeleton's value.
    private let trees: [(String, HoleTree)]
    /// The variant's other files and variant name when no record changes them (no pass.strings with
    /// placeholders); a record with its own images still gets them made.
    private let sharedFiles: (files: [PassFile], variant: String?)?
    /// The template's own serialNumber, from which a record without one gets its serial (`Template.usableSerial`).
    private let ownSerial: String?
    private let template: Template
    private let tier: TemplateTier?
    private let tierName: String?
    /// What rendering says for every pass of the variant (identifiers replaced by the certificate's).
    private let warnings: [String]
    /// The top-level keys whose values differ from record to record.
    public let varyingKeys: Set<String>
    /// The pass fields holding every hole under a style key, none of them in a field's `key`; nil when a hole
    /// lies elsewhere under a style (see `ValidationPlan`).
    public let varyingFields: [FieldSite: FieldChange]?

    /// The variant of `template` that a record with `values` and `context` renders; nil when rendering that
    /// record changes more than leaf values (a reserved record key such as `barcode.message`, a pass field key
    /// with a placeholder, a personalized field without a value, an identifier from a placeholder) or when a
    /// template string could be mistaken for a hole.
    public init?(_ template: Template, values: [String: String], context: RenderContext) {
        guard !Self.changesKeys(values) else { return nil }
        self.template = template
        let named = template.tierField.flatMap { values[$0] }
        let tier = named.flatMap { template.tiers[$0] }
        let tierName = tier == nil ? nil : named
        self.tier = tier
        self.tierName = tierName
        var root = template.variantRoot(tier: tier, compatiblePass: context.compatiblePass)
        for key in ["passTypeIdentifier", "teamIdentifier"] {
            if let own = root[key]?.stringValue, PlaceholderText.mayContainPlaceholder(own) { return nil }
        }
        // The template's own serial, checked once here as `render` checks it per record; a variant whose records
        // cannot make a serial from it gets no blueprint (the whole path then reports why).
        ownSerial = Template.usableSerial(root["serialNumber"])
        if context.serialNumber == nil, ownSerial == nil { return nil }
        let warnings = template.certificateIdentifiers(context, into: &root)
        self.warnings = warnings
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
        let written = JSONWriter.serialize(.object(skeleton))
        guard !failed, let (runs, order) = Self.cut(written, holes: holes.count) else { return nil }
        self.written = written
        self.runs = runs
        self.order = order
        sources = holes.map(\.source)
        self.skeleton = skeleton
        var byKey: [String: [(path: ArraySlice<Step>, index: Int)]] = [:]
        for (index, hole) in holes.enumerated() { byKey[hole.key, default: []].append((hole.path[...], index)) }
        trees = byKey.keys.sorted().map { ($0, HoleTree(skeleton[$0]!, holes: byKey[$0]!)) }
        let recordFree = template.assets.allSatisfy {
            if case .strings(let strings) = $0 { return strings.sharedBytes != nil } else { return true }
        }
        sharedFiles =
            recordFree
            ? template.files(
                tier: tier, tierName: tierName,
                substituter: Substituter(values: [:], kinds: [:], serialNumber: nil),
                context: RenderContext(personalized: context.personalized))
            : nil
        varyingKeys = Set(holes.map(\.key))
        varyingFields = Self.fields(holding: holes)
    }

    /// The shape a record with `values` and `context` renders, to find its blueprint.
    public static func shape(of template: Template, values: [String: String], context: RenderContext) -> Shape {
        let tierName = template.tierField.flatMap { values[$0] }
        return Shape(
            tier: tierName.flatMap { template.tiers[$0] == nil ? nil : $0 },
            compatiblePass: context.compatiblePass, voided: context.voided,
            webServiceURL: context.webServiceURL != nil, authenticationToken: context.authenticationToken != nil,
            serialFromContext: context.serialNumber != nil, personalized: context.personalized)
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
        let serial = try template.serialNumber(record, context: context, usable: ownSerial)
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
        let values = sources.map(value)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(written.count + 64 * values.count)
        for (run, index) in zip(runs, order) {
            bytes += written[run]
            JSONWriter.append(values[index], to: &bytes)
        }
        bytes += written[runs[runs.count - 1]]

        var root = skeleton
        for (key, tree) in trees { root[key] = tree.filled(values) }
        let (files, variant) =
            sharedFiles.flatMap { context.images.isEmpty ? $0 : nil }
            ?? template.files(tier: tier, tierName: tierName, substituter: substituter, context: context)
        return (
            bytes,
            RenderedPass(
                passJSON: .object(root), files: files, warnings: record.warnings + warnings, variant: variant)
        )
    }

    /// The fields that hold the holes under style keys and what varies in each, or nil when a hole is not inside
    /// a field's members other than `key`.
    private static func fields(holding holes: [Hole]) -> [FieldSite: FieldChange]? {
        var sites: [FieldSite: FieldChange] = [:]
        for hole in holes {
            guard let style = PassStyle(rawValue: hole.key) else { continue }
            guard hole.path.count >= 3, case .member(let name) = hole.path[0],
                let group = PassFieldGroup(rawValue: name), case .index(let index) = hole.path[1],
                case .member(let member) = hole.path[2], member != "key"
            else { return nil }
            let site = FieldSite(style: style, group: group, index: index)
            sites[site] = member == "value" && hole.path.count == 3 && sites[site] != .members ? .value : .members
        }
        return sites
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
    private static func cut(_ bytes: [UInt8], holes count: Int) -> (runs: [Range<Int>], order: [Int])? {
        var written: [UInt8] = []
        JSONWriter.writeString(markerPrefix, into: &written)
        let open = Array(written.dropLast())  // the quote, the escaped prefix
        var close: [UInt8] = []
        JSONWriter.writeString("\u{2}\u{1}", into: &close)
        close.removeFirst()  // the escaped suffix, the quote
        var runs: [Range<Int>] = []
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
            runs.append(start..<i)
            order.append(number)
            i = j + close.count
            start = i
        }
        guard seen.count == count else { return nil }
        runs.append(start..<bytes.count)
        return (runs, order)
    }
}

/// The holes under one top-level key as a tree, so that filling copies each container on the way to a hole once.
private indirect enum HoleTree: Sendable {
    case hole(Int)
    case object([String: JSONValue], [(String, HoleTree)])
    case array([JSONValue], [(Int, HoleTree)])

    /// The tree of `holes` (paths below `value`, each with its index in the blueprint's holes) over `value`.
    init(_ value: JSONValue, holes: [(path: ArraySlice<PassBlueprint.Step>, index: Int)]) {
        if let only = holes.first, only.path.isEmpty {
            self = .hole(only.index)
            return
        }
        var byStep: [(PassBlueprint.Step, [(path: ArraySlice<PassBlueprint.Step>, index: Int)])] = []
        for hole in holes {
            let step = hole.path.first!
            let rest = (path: hole.path.dropFirst(), index: hole.index)
            if let at = byStep.firstIndex(where: { $0.0 == step }) {
                byStep[at].1.append(rest)
            } else {
                byStep.append((step, [rest]))
            }
        }
        switch value {
        case .array(let items):
            self = .array(
                items,
                byStep.compactMap { step, holes in
                    guard case .index(let i) = step else { return nil }
                    return (i, HoleTree(items[i], holes: holes))
                })
        default:
            let members = value.objectValue ?? [:]
            self = .object(
                members,
                byStep.compactMap { step, holes in
                    guard case .member(let name) = step, let member = members[name] else { return nil }
                    return (name, HoleTree(member, holes: holes))
                })
        }
    }

    /// The value with its holes set to `values`.
    func filled(_ values: [JSONValue]) -> JSONValue {
        switch self {
        case .hole(let index):
            return values[index]
        case .object(var members, let children):
            for (name, child) in children { members[name] = child.filled(values) }
            return .object(members)
        case .array(var items, let children):
            for (index, child) in children { items[index] = child.filled(values) }
            return .array(items)
        }
    }
}
