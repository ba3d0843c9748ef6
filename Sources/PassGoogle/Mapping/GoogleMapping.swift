import Foundation
import PassModel
import PassSigning
import PassTemplates
import Synchronization

/// One issued pass as the mapping reads it: the finished pass.json, the pass's files and the record's values.
public struct GoogleMappingInput: Sendable {
    /// The pass.json as issued (placeholders substituted, tier applied).
    public var passJSON: JSONValue
    /// The pass's files other than pass.json, manifest and signature (images, pass.strings).
    public var files: [PassFile]
    /// The record's typed values, for google.json's placeholders.
    public var record: [String: String]
    /// `passJSON` as the typed model, when the caller has built it already (the issuer has); nil to parse it.
    public var pass: Pass?

    public init(passJSON: JSONValue, files: [PassFile], record: [String: String], pass: Pass? = nil) {
        self.passJSON = passJSON
        self.files = files
        self.record = record
        self.pass = pass
    }
}

/// Maps a template's passes to Google Wallet: each Apple pass to a class and an object of the kind its style
/// fits (storeCard → loyalty, eventTicket → eventTicket, generic and posterGeneric → generic or loyalty, coupon →
/// offer, boardingPass → flight or transit when its semantics allow, generic otherwise). The template's own
/// values (fields without placeholders, its images) go to the class, the record's to the object; google.json adds
/// or overrides members of both.
///
/// Create one per template and reuse it from many threads: what is the same for every pass is worked out once
/// (which pass.json values are the template's own, the image digests and parsed pass.strings of the files every
/// pass shares, each class's ID), so a member costs little more than its object's own values.
public final class GoogleMapping: Sendable {
    public let template: Template
    public let issuerID: String
    /// Where `serve` publishes images (see `GoogleImageURL`); nil when there is none, and then a pass with an
    /// image Google would show cannot be mapped.
    public let imageBase: String?
    /// The class ID's readable part: the template's folder name.
    let slug: String
    /// See `classFields(of:)`.
    let classFields: Set<String>
    /// `classFields`, sorted.
    private let classFieldOrder: [String]
    /// Every path of the template's pass.json and what `isStatic` needs to know of it.
    let staticPaths: [String: StaticPath]
    private let imageURLs = Mutex<[String: [(bytes: [UInt8], url: String)]]>([:])
    private let stringTables = Mutex<[String: (bytes: [UInt8], table: [String: String])]>([:])
    /// The last class made for each value of the class fields (a tier, an event) and its ID: a member whose class
    /// equals it reuses the ID instead of digesting the class again. For the kinds `classSignature` does not cover.
    private let lastClasses = Mutex<[String: (klass: [String: JSONValue], id: String)]>([:])
    /// Classes made so far by `classSignature`: a member whose signature is known gets its class as made for the
    /// first member with it, without making, comparing or digesting it again.
    private let knownClasses = Mutex<[String: KnownClass]>([:])
    /// Entries kept at most in each memo (one per tier or event, as a rule; past it a memo starts over).
    private static let maxMemo = 1024
    /// The record values the class can depend on: the placeholders of `classKeys` and of the style dictionaries
    /// outside field values, of google.json, the class fields, and the fields personalized by key (see
    /// `classSignature`).
    private let classInputs: [String]
    /// The serial number is among `classInputs`' placeholders.
    private let classInputsSerial: Bool

    /// A class made for the first member with a signature.
    private struct KnownClass {
        let klass: [String: JSONValue]
        let id: String
        /// The gaps of its text modules and members (the rest are found again for every member).
        let gaps: [GoogleGap]
    }

    public init(template: Template, issuerID: String, imageBase: String?) {
        self.template = template
        self.issuerID = issuerID
        self.imageBase = imageBase
        var name = template.directory.split(separator: "/").last.map(String.init) ?? "template"
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        // A stored version is labelled NAME@<short digest>: its classes keep the IDs the folder's passes got.
        if let at = name.firstIndex(of: "@"), at != name.startIndex { name = String(name[..<at]) }
        let cleaned = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "-" }.prefix(40))
        slug = cleaned.isEmpty ? "template" : cleaned
        classFields = Self.classFields(of: template)
        classFieldOrder = classFields.sorted()
        var paths: [String: StaticPath] = [:]
        Self.collectStaticPaths(
            template.passJSON, path: "", classFields: classFields, keyFields: template.keyFields, into: &paths)
        staticPaths = paths
        var inputs = classFields
        for (key, value) in template.passJSON.objectValue ?? [:]
        where Self.classKeys.contains(key) || PassStyle(rawValue: key) != nil {
            inputs.formUnion(Self.placeholdersOutsideFieldValues(value))
        }
        inputs.formUnion(template.keyFields)
        if let google = template.googleJSON { inputs.formUnion(Self.placeholders(in: google)) }
        classInputsSerial = inputs.remove("serialNumber") != nil
        classInputs = inputs.sorted()
    }

    /// The class and object of one pass.
    /// - Throws: `GoogleError` naming the JSON path: a required field without value, an identifier Google
    ///   refuses, a hard limit, an image without a base URL, a google.json member of the wrong type.
    public func map(_ input: GoogleMappingInput) throws(GoogleError) -> GooglePass {
        let pass: Pass
        if let given = input.pass {
            pass = given
        } else {
            do { pass = try Pass.parse(input.passJSON).pass } catch {
                throw .requiredFieldMissing(path: "pass.json", source: error.description)
            }
        }
        let serial = pass.serialNumber ?? ""
        var overrides = GoogleOverrides()
        if let google = template.googleJSON {
            let substituted = template.substitute(google, ResolvedRecord(values: input.record), serialNumber: serial)
            overrides = try GoogleOverrides(substituted, file: template.directory + "/" + Template.googleFile)
        }
        let images = PassImageSet(
            files: input.files, url: imageBase.map { base in { self.url(for: $0, base: base) } } ?? { _ in nil },
            hasBase: imageBase != nil)
        let text = LocalizedText(files: input.files, parse: table)
        let style = pass.style ?? .generic
        var (kind, fallback) = Self.kind(for: pass, style: style, hasLogo: images["logo"] != nil)
        if let forced = overrides.kind {
            kind = forced
            fallback = nil
        }
        var ctx = MappingContext(
            pass: pass, passJSON: input.passJSON, style: style, text: text, images: images, kind: kind,
            isStatic: isStatic)
        let signature = classSignature(ctx, input: input, serial: serial)
        let known = signature.flatMap { key in knownClasses.withLock { $0[key] } }
        if known != nil { ctx.buildsClass = false }
        if let fallback { ctx.gap(style.rawValue, .styleFallback(fallback)) }
        var usedImages: Set<String> = []
        switch kind {
        case .loyalty: LoyaltyMapping.build(&ctx); usedImages = ["logo", "strip", "artwork"]
        case .eventTicket: EventTicketMapping.build(&ctx); usedImages = ["logo", "strip", "artwork"]
        case .generic: GenericMapping.build(&ctx); usedImages = ["logo", "strip", "artwork"]
        case .offer: OfferMapping.build(&ctx); usedImages = ["logo", "strip"]
        case .flight: TravelMapping.buildFlight(&ctx)
        case .transit: TravelMapping.buildTransit(&ctx); usedImages = ["logo"]
        }
        if kind == .loyalty || kind == .generic || kind == .eventTicket, images["strip"] != nil {
            usedImages.remove("artwork")
        }
        if let thumbnail = images["thumbnail"], let json = thumbnail.json {
            ctx.set(
                "imageModulesData", [["id": "thumbnail", "mainImage": json]],
                on: thumbnail.isTemplates ? .class : .object)
            usedImages.insert("thumbnail")
        } else if images["thumbnail"] != nil {
            usedImages.insert("thumbnail")
        }
        BarcodeMapping.apply(&ctx)
        CommonModules.textModules(&ctx)
        CommonModules.links(&ctx)
        CommonModules.locations(&ctx)
        CommonModules.validity(&ctx)
        CommonModules.sharing(&ctx)
        CommonModules.unmapped(&ctx, usedImages: usedImages)
        for slot in usedImages.sorted() where images[slot] != nil && images[slot]?.url == nil {
            throw .noImageBase(path: images[slot]!.path)
        }

        var object = GoogleOverrides.merge(ctx.object, overrides.object)
        let klass: [String: JSONValue]
        let classID: String
        var gaps = ctx.gaps
        if let known {
            (klass, classID) = (known.klass, known.id)
            gaps += known.gaps
        } else {
            var made = GoogleOverrides.merge(ctx.klass, overrides.klass)
            if let id = identifier(made["id"]?.stringValue) {
                classID = id
            } else if signature != nil {
                classID = "\(issuerID).\(slug)-\(Self.contentDigest(made))"
            } else {
                classID = "\(issuerID).\(slug)-\(classDigest(made, record: input.record))"
            }
            made["id"] = .string(classID)
            klass = made
        }
        let objectID = identifier(object["id"]?.stringValue) ?? "\(issuerID).\(Self.objectSuffix(serial))"
        object["id"] = .string(objectID)
        object["classId"] = .string(classID)
        try GoogleChecks.check(
            kind: kind, klass: klass, object: object, issuerID: issuerID, checkClass: known == nil, gaps: &gaps)
        if known == nil, let signature {
            // Remembered once checked: a class Google would refuse is never handed out from the memo.
            let classGaps = gaps.filter { $0.isAboutClassModules || $0.path.hasPrefix(kind.classPayloadKey + "[") }
            let entry = KnownClass(klass: klass, id: classID, gaps: classGaps)
            knownClasses.withLock { memo in
                if memo.count >= Self.maxMemo { memo.removeAll(keepingCapacity: true) }
                memo[signature] = entry
            }
        }
        return GooglePass(
            kind: kind, classID: classID, classJSON: .object(klass), objectID: objectID, objectJSON: .object(object),
            gaps: gaps)
    }

    /// The Google kind an Apple style maps to, and the kind it fell back to when its own does not fit.
    static func kind(for pass: Pass, style: PassStyle, hasLogo: Bool) -> (GoogleKind, fallback: GoogleKind?) {
        switch style {
        case .storeCard: return (.loyalty, nil)
        case .eventTicket: return (.eventTicket, nil)
        case .coupon: return (.offer, nil)
        case .generic: return (.generic, nil)
        case .posterGeneric: return (pass.fallbackStyle == .storeCard ? .loyalty : .generic, nil)
        case .boardingPass:
            if let travel = TravelMapping.kind(for: pass, hasLogo: hasLogo) { return (travel, nil) }
            return (.generic, .generic)
        }
    }

    /// An ID google.json gives, with the issuer prefix added when it has none.
    private func identifier(_ given: String?) -> String? {
        guard let given, !given.isEmpty else { return nil }
        return given.hasPrefix(issuerID + ".") ? given : issuerID + "." + given
    }

    /// `Self.contentDigest(_:)`, digested once per class: members with the same class-field values (the same
    /// tier) have the same class as a rule, and comparing it with the last one costs less than digesting it.
    private func classDigest(_ klass: [String: JSONValue], record: [String: String]) -> String {
        var key = ""
        for name in classFieldOrder {
            key += record[name] ?? ""
            key += "\u{1F}"
        }
        if let last = lastClasses.withLock({ $0[key] }), last.klass == klass { return last.id }
        let made = Self.contentDigest(klass)
        lastClasses.withLock { memo in
            if memo.count >= Self.maxMemo { memo.removeAll(keepingCapacity: true) }
            memo[key] = (klass, made)
        }
        return made
    }

    /// What the class of a loyalty, generic or transit pass is made of, as one string: the kind, the styles
    /// present, the record's values of `classInputs`, and each displayed field's key and the kind of its value
    /// (which decides the slot it takes). Whatever else those builders put in the class is the template's own, or
    /// a tier's, which the class fields decide. nil when the class may depend on more: the other kinds read field
    /// values into the class (an event's name, an offer's title), a member's own image may be the class's hero
    /// image, and pass.strings with placeholders differ per member.
    private func classSignature(_ ctx: MappingContext, input: GoogleMappingInput, serial: String) -> String? {
        guard ctx.kind == .loyalty || ctx.kind == .generic || ctx.kind == .transit else { return nil }
        for file in input.files where file.isPerRecord || (!file.isSharedAsset && file.path.hasSuffix(".strings")) {
            return nil
        }
        var out = ctx.kind.rawValue
        for style in ctx.pass.styles {
            out += "\u{1E}"
            out += style.rawValue
        }
        out += "\u{1D}"
        for name in classInputs {
            if let value = input.record[name] { out += value } else { out += "\u{0}" }
            out += "\u{1F}"
        }
        if classInputsSerial { out += serial }
        out += "\u{1D}"
        for located in ctx.fields {
            out += located.field.key ?? "\u{0}"
            switch located.field.value {
            case nil: out += "\u{1}"
            case .string(let text)?: out += text.isEmpty ? "\u{2}" : "\u{3}"
            case .integer?: out += "\u{4}"
            case .double?: out += "\u{5}"
            }
        }
        return out
    }

    /// The top-level pass.json keys that loyalty, generic and transit classes read whatever their placeholders
    /// (the others go to the class only when `isStatic`, or to the object only: barcodes, dates, voided, …). A
    /// builder that puts another top-level key in one of those classes adds it here.
    static let classKeys: Set<String> = [
        "organizationName", "logoText", "description", "backgroundColor", "sharingProhibited",
    ]

    /// The placeholders of pass.json outside the values of fields (a field is an object with a `key`; its
    /// `value` and `attributedValue` are the member's, its label and styles are not).
    static func placeholdersOutsideFieldValues(_ value: JSONValue) -> Set<String> {
        switch value {
        case .array(let items):
            return items.reduce(into: []) { $0.formUnion(placeholdersOutsideFieldValues($1)) }
        case .object(let members):
            let isField = members["key"] != nil
            var names: Set<String> = []
            for (name, member) in members where !(isField && (name == "value" || name == "attributedValue")) {
                names.formUnion(placeholdersOutsideFieldValues(member))
            }
            return names
        default:
            return placeholders(in: value)
        }
    }

    /// The first 12 hex digits of the SHA-256 of the class's members (without `id`): equal classes share an ID,
    /// and a class that changes gets a new one.
    static func contentDigest(_ klass: [String: JSONValue]) -> String {
        var members = klass
        members.removeValue(forKey: "id")
        return String(SHA256Digest.hex(JSONWriter.serialize(.object(members), pretty: false)).prefix(12))
    }

    /// The serial number when Google's grammar allows it, else a cleaned copy made unique by a digest.
    static func objectSuffix(_ serial: String) -> String {
        if !serial.isEmpty, serial.utf8.allSatisfy(GoogleChecks.isIDByte) { return serial }
        let cleaned = String(
            serial.unicodeScalars.map {
                GoogleChecks.isIDByte(UInt8(truncatingIfNeeded: $0.value)) && $0.isASCII ? Character($0) : "_"
            })
        return cleaned.prefix(48) + "-" + SHA256Digest.hex(Array(serial.utf8)).prefix(8)
    }

    /// The image's URL, its digest computed once per file every pass shares (a path has one per tier).
    private func url(for file: PassFile, base: String) -> String {
        if !file.isPerRecord, let known = imageURLs.withLock({ $0[file.path] }) {
            // Template bytes are shared buffers: comparing them is a pointer check, not a read.
            for entry in known where entry.bytes == file.bytes { return entry.url }
        }
        let made = GoogleImageURL.url(base: base, bytes: file.bytes)
        if !file.isPerRecord {
            imageURLs.withLock { cache in
                var entries = cache[file.path] ?? []
                if entries.count >= 16 { entries.removeFirst() }
                entries.append((file.bytes, made))
                cache[file.path] = entries
            }
        }
        return made
    }

    /// A pass.strings table, parsed once per file every pass shares.
    private func table(_ file: PassFile) -> [String: String] {
        if let cached = stringTables.withLock({ $0[file.path] }), cached.bytes == file.bytes { return cached.table }
        let entries = (try? PassStrings.parse(file.bytes, file: file.path)) ?? []
        var table: [String: String] = [:]
        for entry in entries { table[entry.key] = entry.value }
        if file.isSharedAsset { stringTables.withLock { $0[file.path] = (file.bytes, table) } }
        return table
    }

    /// True when the template's pass.json holds the same value at `path` without a placeholder (and no tier
    /// changes it): the value is the same for every pass. A field personalized by key (Pass Designer templates)
    /// counts only when `value`, the field's value as rendered, is given and is the template's.
    func isStatic(_ path: String, _ value: JSONValue?) -> Bool {
        guard let known = staticPaths[path], known.placeholdersAreClassFields else { return false }
        guard let personalized = known.personalizedValue else { return true }
        guard let value, value == personalized else { return false }
        return true
    }

    /// A value of the template's pass.json, as `isStatic` reads it.
    struct StaticPath: Sendable {
        /// Every placeholder in it names a class field (or it has none).
        let placeholdersAreClassFields: Bool
        /// For a field personalized by key, its value in the template (`.null` when it has none); nil otherwise.
        let personalizedValue: JSONValue?
    }

    /// Walks the template's pass.json once, noting each path (`storeCard.backFields[2]`, `locations`, ...) with
    /// whether its placeholders are all class fields; returns the placeholders under `value`.
    @discardableResult
    private static func collectStaticPaths(
        _ value: JSONValue, path: String, classFields: Set<String>, keyFields: Set<String>,
        into paths: inout [String: StaticPath]
    ) -> Set<String> {
        var names: Set<String> = []
        switch value {
        case .array(let items):
            for (index, item) in items.enumerated() {
                names.formUnion(
                    collectStaticPaths(
                        item, path: JSONPath.index(path, index), classFields: classFields, keyFields: keyFields,
                        into: &paths))
            }
        case .object(let members):
            for (name, member) in members {
                names.formUnion(
                    collectStaticPaths(
                        member, path: JSONPath.member(path, name), classFields: classFields, keyFields: keyFields,
                        into: &paths))
            }
        default:
            names = placeholders(in: value)
        }
        guard !path.isEmpty else { return names }
        var personalized: JSONValue?
        if let key = value["key"]?.stringValue, keyFields.contains(key) { personalized = value["value"] ?? .null }
        paths[path] = StaticPath(
            placeholdersAreClassFields: names.isSubset(of: classFields), personalizedValue: personalized)
        return names
    }

    /// The names of the `{{placeholders}}` in a JSON value.
    static func placeholders(in value: JSONValue) -> Set<String> {
        switch value {
        case .string(let s):
            var names: Set<String> = []
            var rest = Substring(s)
            while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
                names.insert(rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces))
                rest = rest[close.upperBound...]
            }
            return names
        case .array(let items): return items.reduce(into: []) { $0.formUnion(placeholders(in: $1)) }
        case .object(let members): return members.values.reduce(into: []) { $0.formUnion(placeholders(in: $1)) }
        default: return []
        }
    }

    /// The record fields whose values make a class of their own, so values made of them alone belong to the
    /// class: the tier field (a class per tier: its colours and images), and an event ticket's event (its name,
    /// venue and times, which `EventTicketMapping` puts in the class: a class per event).
    static func classFields(of template: Template) -> Set<String> {
        var names: Set<String> = []
        if let tier = template.tierField { names.insert(tier) }
        let root = template.passJSON
        if root["eventTicket"] != nil, let semantics = root["semantics"] {
            for tag in [
                "eventName", "venueName", "venueRoom", "venueRegionName", "eventStartDate", "eventEndDate",
                "venueDoorsOpenDate",
            ] {
                if let value = semantics[tag] { names.formUnion(placeholders(in: value)) }
            }
        }
        return names
    }
}
