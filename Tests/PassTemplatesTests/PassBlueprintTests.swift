import PassModel
import Testing

@testable import PassTemplates

/// A blueprint must give byte for byte what `render` and `JSONWriter` give, for every record of its variant.
@Suite("Pass blueprints")
struct PassBlueprintTests {
    /// Values that exercise escaping, numbers and absence.
    static let awkward = [
        "", "plain", "quote \" and backslash \\", "line\nbreak\ttab\r", "ünïcödé ✓ 🎟", "{{notAPlaceholder}}", "42",
        "-7", "12.50", "1e3", "  spaced  ",
    ]

    /// A minimal pass.json with the given top-level texts and style dictionary (JSON text, after the common keys).
    static func passJSON(serial: String = "S", organization: String = "O", description: String = "D", _ rest: String)
        -> String
    {
        """
        {"formatVersion": 1, "serialNumber": "\(serial)", "passTypeIdentifier": "pass.x", "teamIdentifier": "T",
         "organizationName": "\(organization)", "description": "\(description)", \(rest)}
        """
    }

    /// Asserts the blueprint for `values`/`context` fills exactly what `render` makes.
    private func expectSame(
        _ template: Template, _ values: [String: String], _ context: RenderContext,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let record = try template.resolve(values)
        let blueprint = try #require(
            PassBlueprint(template, values: record.values, context: context), sourceLocation: sourceLocation)
        let rendered = try template.render(record, context: context)
        let filled = try blueprint.fill(record, context: context)
        #expect(filled.passJSON == JSONWriter.serialize(rendered.passJSON), sourceLocation: sourceLocation)
        #expect(filled.rendered.passJSON == rendered.passJSON, sourceLocation: sourceLocation)
        #expect(filled.rendered.files == rendered.files, sourceLocation: sourceLocation)
        #expect(filled.rendered.warnings == rendered.warnings, sourceLocation: sourceLocation)
        #expect(filled.rendered.variant == rendered.variant, sourceLocation: sourceLocation)
        // The varying keys are exactly those whose values differ between two records of the variant.
        #expect(blueprint.varyingKeys.contains("serialNumber"), sourceLocation: sourceLocation)
    }

    @Test("the shipped templates: every record, tier and context writes what render writes")
    func shipped() throws {
        for name in ["loyalty", "status", "event"] {
            let template = try Template.load(directory: PackagePaths.template(name))
            let contexts = [
                RenderContext(serialNumber: "SN-1"),
                RenderContext(
                    serialNumber: "SN \"2\"", passTypeIdentifier: "pass.other.id", teamIdentifier: "TEAM123456",
                    webServiceURL: "https://passes.example/", authenticationToken: "0123456789abcdef0123",
                    voided: true),
                RenderContext(serialNumber: "SN-3", compatiblePass: true, personalized: true),
            ]
            let textFields = template.fields.filter { $0.kind == .string }.map(\.name)
            for context in contexts {
                try expectSame(template, [:], context)
                for tier in template.tiers.keys.sorted() {
                    try expectSame(template, [template.tierField!: tier], context)
                }
                for value in Self.awkward {
                    try expectSame(template, Dictionary(uniqueKeysWithValues: textFields.map { ($0, value) }), context)
                }
            }
        }
    }

    @Test("numbers: a whole-placeholder integer or decimal is a JSON number, else text; absent values are empty")
    func numbers() throws {
        let (template, _) = try TemplateFolder.load([
            "pass.json": Self.passJSON(
                serial: "S-{{n}}", organization: "O {{opt}}",
                """
                "storeCard": {"primaryFields": [{"key": "n", "value": "{{n}}"}, {"key": "d", "value": "{{d}}"},
                  {"key": "t", "value": "{{n}} pts, {{d}} USD {{opt}}"}]}
                """),
            "template.json": """
            {"fields": [{"name": "n", "type": "integer", "required": true},
                        {"name": "d", "type": "decimal", "required": false},
                        {"name": "opt", "type": "string", "required": false}]}
            """,
        ])
        try expectSame(template, ["n": "42", "d": "10.5", "opt": "x"], RenderContext())
        try expectSame(template, ["n": "-3"], RenderContext())
        try expectSame(template, ["n": "7", "d": "0.25"], RenderContext(serialNumber: "given"))
    }

    @Test("pass.strings with placeholders and a record's own images are made per record, as render makes them")
    func perRecordFiles() throws {
        let (template, _) = try TemplateFolder.load([
            "pass.json": Self.passJSON(
                #""generic": {"primaryFields": [{"key": "n", "label": "greeting", "value": "{{name}}"}]}"#),
            "en.lproj/pass.strings": "\"greeting\" = \"Hello {{name}}\";",
            "fr.lproj/pass.strings": "\"greeting\" = \"Bonjour\";",
            "icon.png": "png",
        ])
        let photo = PassFile(path: "thumbnail.png", bytes: [1, 2, 3], isSharedAsset: false)
        for name in ["Zoë", "A \"quoted\" name"] {
            try expectSame(template, ["name": name], RenderContext(serialNumber: "S-1"))
            try expectSame(template, ["name": name], RenderContext(serialNumber: "S-2", images: [photo]))
        }
    }

    @Test("a personalized field key takes the record's value, else the template's (substituted) value")
    func keyFields() throws {
        let template = try DesignerSample.load()
        try #require(!template.keyFields.isEmpty)
        let context = RenderContext(serialNumber: "C-1")
        try expectSame(template, [:], context)
        try expectSame(template, ["TIER": "Platinum", "POINTS": "77", "BALANCE": "3.25"], context)
        try expectSame(template, ["MEMBER_NAME": "Zoë \"Z\" Ng", "SINCE": "2024-02-29T10:00:00+01:00"], context)
    }

    @Test("no blueprint when a record changes keys or a template string holds the hole marker")
    func refused() throws {
        let template = try Template.load(directory: PackagePaths.template("loyalty"))
        let context = RenderContext(serialNumber: "SN-1")
        #expect(PassBlueprint(template, values: ["barcode.message": "X"], context: context) == nil)
        #expect(
            PassBlueprint(template, values: ["relevantDate.start": "2027-01-01T00:00:00Z"], context: context) == nil)
        let loyalty = try #require(PassBlueprint(template, values: [:], context: context))
        // Its holes lie in field values and barcodes, so the other fields are checked once per variant.
        #expect(loyalty.varyingKeys == ["serialNumber", "storeCard", "barcodes"])
        #expect(loyalty.varyingFields?[FieldSite(style: .storeCard, group: .primaryFields, index: 0)] == .value)
        let (keyed, _) = try TemplateFolder.load([
            "pass.json": Self.passJSON(#""generic": {"primaryFields": [{"key": "k-{{n}}", "value": "v"}]}"#)
        ])
        #expect(try #require(PassBlueprint(keyed, values: ["n": "1"], context: context)).varyingFields == nil)
        let (marked, _) = try TemplateFolder.load([
            "pass.json": Self.passJSON(
                organization: "\\u0001\\u0002passmint-hole-0\\u0002\\u0001", description: "{{d}}", #""generic": {}"#)
        ])
        #expect(PassBlueprint(marked, values: ["d": "x"], context: context) == nil)
    }

    @Test(
        "fixture templates compile and write what render writes",
        .enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures),
        arguments: FixtureTemplateTests.names)
    func fixtures(name: String) throws {
        let template = try Template.load(directory: try #require(PackagePaths.fixture("templates/\(name)")))
        try expectSame(
            template, [:],
            RenderContext(
                passTypeIdentifier: "pass.dev.passmint", teamIdentifier: "DEVTEAM",
                webServiceURL: "https://passes.example/", authenticationToken: "0123456789abcdef0123"))
    }
}
