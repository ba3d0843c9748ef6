/// `PassValidator.validate` for many passes of one shape: the same top-level keys, and values that differ only
/// under the keys named `varying`. Each section of the validator that reads none of those keys' values runs once,
/// here; `validate(_:)` runs the others and puts every finding in the order `PassValidator.validate` gives.
///
/// A section's reads are declared in `PassValidator.sections`; only values count, because a plan is for passes
/// whose keys are all present in every pass (a section that asks only whether a key is there reads nothing that
/// varies).
///
/// A class: every worker reads one plan for every pass (see `PassBlueprint`).
public final class ValidationPlan: Sendable {
    /// Per section: its findings when they cannot vary, nil when it runs for every pass.
    private let fixed: [[Problem]?]
    /// The pass fields whose findings stand for every pass (see `init`).
    private let fields: [FieldSite: FieldRun]
    /// The style section as steps, when nothing in it varies but some fields' values: its findings recorded once,
    /// with the checks of those values run again in their place. Nil when the section walks the styles per pass.
    private let styleSteps: [StyleStep]?

    private enum StyleStep: Sendable {
        case fixed([Problem])
        case value(FieldSite, FieldRun, FieldRun.ValueChecks)
    }

    /// - Parameters:
    ///   - root: one pass of the shape (its varying values are not used).
    ///   - varying: the top-level keys whose values may differ from pass to pass.
    ///   - varyingFields: when the varying values under style keys all lie inside these pass fields and none is a
    ///     field's `key`, the other fields are checked once, here, and of a field whose only varying member is its
    ///     `value` only the value is checked per pass; nil when anything else under a style varies.
    public init(_ root: [String: JSONValue], varying: Set<String>, varyingFields: [FieldSite: FieldChange]?) {
        var fields: [FieldSite: FieldRun] = [:]
        var styleSteps: [StyleStep]?
        fixed = PassValidator.sections.map { section in
            var c = Checker()
            guard section.reads.isDisjoint(with: varying) else {
                if section.checksFields, let varyingFields {
                    c.fieldRuns = [:]
                    c.checkStyles(root)
                    for (site, run) in c.fieldRuns ?? [:] {
                        switch varyingFields[site] {
                        case nil:
                            fields[site] = FieldRun(problems: run.problems, seenAfter: run.seenAfter)
                        case .value?:
                            if run.valueChecks != nil { fields[site] = run }
                        case .members?:
                            break
                        }
                    }
                    styleSteps = Self.steps(c, root: root, varying: varying, varyingFields: varyingFields)
                }
                return nil
            }
            section.run(&c, root)
            return c.problems
        }
        self.fields = fields
        self.styleSteps = styleSteps
    }

    /// `checkStyles`'s recorded walk (`c`) as steps, or nil when more than field values vary in it: a field's
    /// other members, or a key the field counts read (`Checker.fieldCountReads`).
    private static func steps(
        _ c: Checker, root: [String: JSONValue], varying: Set<String>, varyingFields: [FieldSite: FieldChange]
    ) -> [StyleStep]? {
        let present = PassStyle.allCases.filter { root[$0.rawValue] != nil }
        guard let runs = c.fieldRuns, !varyingFields.values.contains(.members),
            varying.isDisjoint(with: Checker.fieldCountReads(present))
        else { return nil }
        var steps: [StyleStep] = []
        var at = 0
        for (site, run) in runs.sorted(by: { $0.value.order < $1.value.order }) where varyingFields[site] != nil {
            guard let checks = run.valueChecks, let span = run.span else { return nil }
            steps.append(.fixed(Array(c.problems[at..<span.lowerBound])))
            steps.append(.value(site, run, checks))
            at = span.upperBound
        }
        // A varying field the walk did not reach (not a dictionary in this pass) is not covered by the steps.
        guard steps.count == 2 * varyingFields.count else { return nil }
        steps.append(.fixed(Array(c.problems[at...])))
        return steps
    }

    /// Runs the style steps on `root`; false (and nothing added) when a varying field is missing from it.
    private func runStyleSteps(_ steps: [StyleStep], on root: [String: JSONValue], into c: inout Checker) -> Bool {
        var items: [JSONValue] = []
        items.reserveCapacity(steps.count / 2)
        for case .value(let site, _, _) in steps {
            guard let group = root[site.style.rawValue]?.objectValue?[site.group.rawValue]?.arrayValue,
                site.index < group.count
            else { return false }
            items.append(group[site.index])
        }
        var next = 0
        for step in steps {
            switch step {
            case .fixed(let problems):
                c.problems += problems
            case .value(let site, let run, let checks):
                c.checkFieldValue(
                    items[next], run: run, checks: checks,
                    path: JSONPath.index(JSONPath.member(site.style.rawValue, site.group.rawValue), site.index))
                next += 1
            }
        }
        return true
    }

    /// Whether the style section is replayed from recorded findings (see `styleSteps`).
    var replaysStyles: Bool { styleSteps != nil }

    /// Every finding of `PassValidator.validate(.object(root))` for a pass of the plan's shape.
    public func validate(_ root: [String: JSONValue]) -> [Problem] {
        var c = Checker()
        for (section, fixed) in zip(PassValidator.sections, fixed) {
            if let fixed {
                c.problems += fixed
            } else if section.checksFields {
                if let styleSteps, runStyleSteps(styleSteps, on: root, into: &c) { continue }
                c.checkStyles(root, reusing: fields)
            } else {
                section.run(&c, root)
            }
        }
        return c.problems
    }
}

/// What varies in a pass field from pass to pass.
public enum FieldChange: Sendable {
    /// Its `value` only.
    case value
    /// Other members too (its `key` never).
    case members
}

/// A pass field's place: its style dictionary, group and index.
public struct FieldSite: Hashable, Sendable {
    public let style: PassStyle
    public let group: PassFieldGroup
    public let index: Int

    public init(style: PassStyle, group: PassFieldGroup, index: Int) {
        self.style = style
        self.group = group
        self.index = index
    }
}

/// One field as `Checker.checkStyles` checked it: its findings and the keys seen up to and including it.
struct FieldRun: Sendable {
    /// Where the findings that read the field's value lie in `problems`.
    struct ValueChecks: Sendable {
        let date: Range<Int>
        let number: Range<Int>
    }

    let problems: [Problem]
    let seenAfter: [String: String]
    /// Set when a plan checks only the field's value again (nothing else of the field varies).
    var valueChecks: ValueChecks?
    /// Where `problems` lie among the findings of the walk that recorded the field, and the field's place in
    /// that walk (nil for a run a plan made).
    var span: Range<Int>? = nil
    var order = 0
}

extension PassValidator {
    /// One part of the walk: the top-level keys whose values it reads, and the check.
    struct Section: Sendable {
        let reads: Set<String>
        let run: @Sendable (inout Checker, [String: JSONValue]) -> Void
        /// The section is `checkStyles`, whose fields a plan can check one by one.
        var checksFields = false
    }

    /// The validator's walk in order. `reads` lists every top-level key a section looks into (keys it only tests
    /// for presence aside); `ValidationPlan` relies on it to skip a section whose inputs cannot change.
    static let sections: [Section] = {
        let styles = PassStyle.allCases.map(\.rawValue)
        let plainStrings = Pass.stringKeys.map(\.0).filter { !Checker.stringKeysCheckedElsewhere.contains($0) }
        return [
            Section(
                reads: Set(["formatVersion"] + Checker.requiredHints.map(\.0)), run: { $0.checkRequired($1) }),
            Section(
                reads: Set(styles + ["barcodes", "barcode"]), run: { $0.checkStyles($1) }, checksFields: true),
            Section(
                reads: Set(
                    plainStrings + Pass.boolKeys.map(\.0) + Pass.colorKeys.map(\.0) + ["upcomingPassInformation"]),
                run: { $0.checkTopLevelTypes($1) }),
            Section(reads: ["barcodes", "barcode"], run: { $0.checkBarcodes($1) }),
            Section(
                reads: ["relevantDate", "expirationDate", "maxDistance", "locations", "beacons", "relevantDates"],
                run: { $0.checkRelevance($1) }),
            Section(
                reads: Set(
                    ["webServiceURL", "authenticationToken", "groupingIdentifier", "appLaunchURL", "nfc"]
                        + Pass.storeIdentifierKeys.map(\.0)),
                run: { $0.checkService($1) }),
            Section(reads: ["semantics", "preferredStyleSchemes", "nfc"], run: { $0.checkSemanticsAndPoster($1) }),
            Section(reads: ["featuredActions", "preferredStyleSchemes"], run: { $0.checkFeaturedActions($1) }),
            Section(reads: ["preferredStyleSchemes"], run: { $0.checkUnconfirmedKeys($1) }),
            Section(reads: [], run: { $0.unknownKeys($1, known: Pass.knownKeys, in: "") }),
        ]
    }()
}
