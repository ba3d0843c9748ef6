/// `PassValidator.validate` for many passes of one shape: the same top-level keys, and values that differ only
/// under the keys named `varying`. Each section of the validator that reads none of those keys' values runs once,
/// here; `validate(_:)` runs the others and puts every finding in the order `PassValidator.validate` gives.
///
/// A section's reads are declared in `PassValidator.sections`; only values count, because a plan is for passes
/// whose keys are all present in every pass (a section that asks only whether a key is there reads nothing that
/// varies).
public struct ValidationPlan: Sendable {
    /// Per section: its findings when they cannot vary, nil when it runs for every pass.
    private let fixed: [[Problem]?]

    /// - Parameters:
    ///   - root: one pass of the shape (its varying values are not used).
    ///   - varying: the top-level keys whose values may differ from pass to pass.
    public init(_ root: [String: JSONValue], varying: Set<String>) {
        fixed = PassValidator.sections.map { section in
            guard section.reads.isDisjoint(with: varying) else { return nil }
            var c = Checker()
            section.run(&c, root)
            return c.problems
        }
    }

    /// Every finding of `PassValidator.validate(.object(root))` for a pass of the plan's shape.
    public func validate(_ root: [String: JSONValue]) -> [Problem] {
        var c = Checker()
        for (section, fixed) in zip(PassValidator.sections, fixed) {
            if let fixed { c.problems += fixed } else { section.run(&c, root) }
        }
        return c.problems
    }
}

extension PassValidator {
    /// One part of the walk: the top-level keys whose values it reads, and the check.
    struct Section: Sendable {
        let reads: Set<String>
        let run: @Sendable (inout Checker, [String: JSONValue]) -> Void
    }

    /// The validator's walk in order. `reads` lists every top-level key a section looks into (keys it only tests
    /// for presence aside); `ValidationPlan` relies on it to skip a section whose inputs cannot change.
    static let sections: [Section] = {
        let styles = PassStyle.allCases.map(\.rawValue)
        let plainStrings = Pass.stringKeys.map(\.0).filter { !Checker.stringKeysCheckedElsewhere.contains($0) }
        return [
            Section(
                reads: Set(["formatVersion"] + Checker.requiredHints.map(\.0)), run: { $0.checkRequired($1) }),
            Section(reads: Set(styles + ["barcodes", "barcode"]), run: { $0.checkStyles($1) }),
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
