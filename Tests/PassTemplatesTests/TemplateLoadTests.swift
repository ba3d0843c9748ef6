import PassModel
import Testing
@testable import PassTemplates

@Suite("Template.load")
struct TemplateLoadTests {
    static let plainPass = """
        {"formatVersion": 1, "serialNumber": "A-1", "passTypeIdentifier": "pass.example", "teamIdentifier": "T1",
         "organizationName": "Org", "description": "Card", "generic": {"primaryFields": []}}
        """

    @Test("a plain .pass folder is a template: files kept, junk skipped, literal serial detected")
    func plainFolder() throws {
        let files: [String: [UInt8]] = [
            "pass.json": Array(Self.plainPass.utf8),
            "icon.png": TemplateFolder.image("icon"),
            "icon@2x.png": TemplateFolder.image("icon2"),
            "en.lproj/pass.strings": Array("\"a\" = \"b\";".utf8),
            "en.lproj/logo.png": TemplateFolder.image("logo-en"),
            ".DS_Store": [0, 1], "Thumbs.db": [1], "__MACOSX/._icon.png": [2], ".hidden": [3],
            "en.lproj/.DS_Store": [4],
        ]
        try TemplateFolder.with(files) { dir in
            let template = try Template.load(directory: dir + "/")
            #expect(template.directory == dir)
            #expect(template.fields.isEmpty)
            #expect(!template.hasTemplateJSON)
            #expect(template.hasLiteralSerialNumber)
            #expect(template.leniencies.isEmpty)
            #expect(template.warnings.isEmpty)
            #expect(template.localizations == ["en.lproj"])
            let pass = try template.render(template.resolve([:]), context: RenderContext())
            #expect(
                pass.files.map(\.path) == ["en.lproj/logo.png", "en.lproj/pass.strings", "icon.png", "icon@2x.png"])
            #expect(pass.file("icon.png")?.bytes == TemplateFolder.image("icon"))
            #expect(pass.files.allSatisfy { $0.isSharedAsset })
            #expect(pass.passJSON["serialNumber"] == "A-1")
            #expect(pass.passJSON == template.passJSON)
        }
    }

    @Test("manifest.json, signature and nested folders are skipped with a warning")
    func skippedWithWarnings() throws {
        try TemplateFolder.with(text: [
            "pass.json": Self.plainPass, "manifest.json": "{}", "signature": "x", "extra/readme.txt": "hi",
            "fr.lproj/sub/x.png": "x",
        ]) { dir in
            let template = try Template.load(directory: dir)
            #expect(template.warnings.count == 4)
            #expect(template.warnings.contains { $0.hasPrefix(dir + "/manifest.json: skipped") })
            #expect(template.warnings.contains { $0.hasPrefix(dir + "/signature: skipped") })
            #expect(template.warnings.contains { $0.hasPrefix(dir + "/extra/: folder skipped") })
            #expect(template.warnings.contains { $0.hasPrefix(dir + "/fr.lproj/sub/: folder skipped") })
            let pass = try template.render(ResolvedRecord(values: [:]), context: RenderContext())
            #expect(pass.files.isEmpty)
        }
    }

    @Test("without template.json every placeholder is an implicit required string field")
    func implicitFields() throws {
        let (template, _) = try TemplateFolder.load([
            "pass.json": """
            {"serialNumber": "{{serialNumber}}", "description": "{{ title }}",
             "generic": {"primaryFields": [{"key": "n", "value": "{{name}} / {{title}}"}]}}
            """,
            "de.lproj/pass.strings": "\"k\" = \"Hallo {{greeting}}\";",
        ])
        #expect(
            template.fields == [
                TemplateField(name: "title", kind: .string, required: true),
                TemplateField(name: "name", kind: .string, required: true),
                TemplateField(name: "greeting", kind: .string, required: true),
            ])
        #expect(!template.hasLiteralSerialNumber)
    }

    @Test("missing folder, missing pass.json and a non-object pass.json are errors")
    func missingThings() throws {
        #expect(throws: TemplateError.unreadable(path: "/nonexistent/passmint-tpl", reason: "no such folder")) {
            try Template.load(directory: "/nonexistent/passmint-tpl")
        }
        try TemplateFolder.with(text: ["icon.png": "x"]) { dir in
            #expect(throws: TemplateError.missingPassJSON(directory: dir)) { try Template.load(directory: dir) }
        }
        try TemplateFolder.with(text: ["pass.json": "[1, 2]"]) { dir in
            let error = #expect(throws: TemplateError.self) { try Template.load(directory: dir) }
            #expect(error?.description.hasPrefix(dir + "/pass.json: the top level must be an object") == true)
        }
    }

    @Test("invalid JSON reports file:line:column")
    func invalidJSON() throws {
        try TemplateFolder.with(text: [
            "pass.json": Self.plainPass, "template.json": "{\n  \"fields\": [\n    {name: 1}\n]}",
        ]) { dir in
            let error = #expect(throws: TemplateError.self) { try Template.load(directory: dir) }
            guard case .invalidJSON(let file, let line, let column, _)? = error else {
                Issue.record("expected invalidJSON, got \(String(describing: error))")
                return
            }
            #expect(file == dir + "/template.json")
            #expect(line == 3)
            #expect(column == 6)
            #expect(error!.description.hasPrefix(dir + "/template.json:3:6: invalid JSON"))
        }
    }

    @Test("template.json leniencies and unknown keys are warnings")
    func templateJSONWarnings() throws {
        let (template, dir) = try TemplateFolder.load([
            "pass.json": Self.plainPass,
            "template.json": "{\"fields\": [{\"name\": \"a\", \"colour\": 1},], \"extra\": true}",
        ])
        #expect(template.warnings.contains { $0.hasPrefix(dir + "/template.json: trailing comma") })
        #expect(template.warnings.contains { $0.contains("fields[0].colour: unknown key") })
        #expect(template.warnings.contains { $0.contains("extra: unknown key") })
        #expect(template.fields == [TemplateField(name: "a")])
    }

    @Test(
        "template.json contract violations name the JSON path",
        arguments: [
            (#"{"fields": {}}"#, "fields: must be an array"),
            (#"{"fields": [{"type": "string"}]}"#, "fields[0].name: every field needs"),
            (#"{"fields": [{"name": "first name"}]}"#, "fields[0].name: \"first name\" is not a valid field name"),
            (#"{"fields": [{"name": "serialNumber"}]}"#, "fields[0].name: \"serialNumber\" is reserved"),
            (#"{"fields": [{"name": "a"}, {"name": "a"}]}"#, "fields[1].name: field \"a\" is declared twice"),
            (#"{"fields": [{"name": "a", "type": "money"}]}"#, "fields[0].type: type must be one of"),
            (#"{"fields": [{"name": "a", "required": "yes"}]}"#, "fields[0].required: must be true or false"),
            (#"{"fields": [{"name": "a", "type": "enum"}]}"#, "fields[0].values: an enum field needs"),
            (#"{"fields": [{"name": "a", "type": "enum", "values": ["x", "x"]}]}"#, "fields[0].values: must be"),
            (
                #"{"fields": [{"name": "a", "type": "integer", "default": "ten"}]}"#,
                "fields[0].default: \"ten\" is not a valid integer"
            ),
            (#"{"fields": [{"name": "a", "type": "enum", "values": ["x"], "default": "y"}]}"#, "fields[0].default:"),
            (#"{"fields": [{"name": "a"}], "tiers": {"field": "b"}}"#, "tiers.field: \"b\" is not a declared field"),
            (
                #"{"fields": [{"name": "t", "type": "enum", "values": ["Gold"]}], "tiers": {"field": "t", "values": {"Bronze": {}}}}"#,
                "tiers.values.Bronze: \"Bronze\" is not one of the values"
            ),
            (
                #"{"fields": [{"name": "t"}], "tiers": {"field": "t", "values": {"G": {"pass": {"serialNumber": "x"}}}}}"#,
                "tiers.values.G.pass.serialNumber: a tier cannot change serialNumber"
            ),
            (
                #"{"fields": [{"name": "t"}], "tiers": {"field": "t", "values": {"G": {"images": {"../x.png": "a.png"}}}}}"#,
                "tiers.values.G.images[\"../x.png\"]"
            ),
            (
                #"{"fields": [{"name": "t"}], "tiers": {"field": "t", "values": {"G": {"images": {"strip.png": "../a.png"}}}}}"#,
                "tiers.values.G.images[\"strip.png\"]: must be a relative path"
            ),
        ])
    func contractViolations(json: String, fragment: String) throws {
        try TemplateFolder.with(text: ["pass.json": Self.plainPass, "template.json": json]) { dir in
            let error = #expect(throws: TemplateError.self) { try Template.load(directory: dir) }
            let text = error?.description ?? ""
            #expect(text.hasPrefix(dir + "/template.json: "), "\(text)")
            #expect(text.contains(fragment), "\(text)")
        }
    }

    @Test("defaults are normalised and numbers are accepted as defaults")
    func defaults() throws {
        let (template, _) = try TemplateFolder.load([
            "pass.json": Self.plainPass,
            "template.json": """
            {"fields": [{"name": "n", "type": "integer", "default": 7},
                        {"name": "d", "type": "decimal", "default": "007.50"},
                        {"name": "when", "type": "date", "default": "2027-01-02"}]}
            """,
        ])
        #expect(template.fields.map(\.defaultValue) == ["7", "7.50", "2027-01-02T00:00:00Z"])
    }

    @Test("an unknown placeholder names the file, the JSON path and a near miss")
    func unknownPlaceholder() throws {
        try TemplateFolder.with(text: [
            "pass.json": #"{"storeCard": {"primaryFields": [{"key": "p", "value": "{{ pionts }}"}]}}"#,
            "template.json": #"{"fields": [{"name": "points", "type": "integer"}]}"#,
        ]) { dir in
            let error = #expect(throws: TemplateError.self) { try Template.load(directory: dir) }
            #expect(
                error
                    == .unknownPlaceholder(
                        file: dir + "/pass.json", path: "storeCard.primaryFields[0].value",
                        name: "pionts", suggestion: "points"))
            let text = error?.description ?? ""
            #expect(text.contains(dir + "/pass.json"))
            #expect(text.contains("storeCard.primaryFields[0].value"))
            #expect(text.contains("{{pionts}}"))
            #expect(text.contains("did you mean {{points}}"))
        }
    }

    @Test("an unknown placeholder in pass.strings or a tier override names that file")
    func unknownPlaceholderElsewhere() throws {
        try TemplateFolder.with(text: [
            "pass.json": "{}", "template.json": #"{"fields": [{"name": "a"}]}"#,
            "en.lproj/pass.strings": "\"x\" = \"ok {{a}}\";\n\"y\" = \"{{b}}\";",
        ]) { dir in
            #expect(
                throws: TemplateError.unknownPlaceholder(
                    file: dir + "/en.lproj/pass.strings", path: "key \"y\"",
                    name: "b", suggestion: "a")
            ) {
                try Template.load(directory: dir)
            }
        }
        try TemplateFolder.with(text: [
            "pass.json": "{}",
            "template.json":
                #"{"fields": [{"name": "tier"}], "tiers": {"field": "tier", "values": {"Gold": {"pass": {"logoText": "{{nope}}"}}}}}"#,
        ]) { dir in
            let error = #expect(throws: TemplateError.self) { try Template.load(directory: dir) }
            #expect(error?.description.contains(dir + "/template.json: tiers.values.Gold.pass.logoText") == true)
        }
    }

    @Test("malformed {{ }} is an error; an unclosed {{ is literal text")
    func malformed() throws {
        try TemplateFolder.with(text: ["pass.json": #"{"description": "Hi {{ first name }}"}"#]) { dir in
            #expect(
                throws: TemplateError.malformedPlaceholder(
                    file: dir + "/pass.json", path: "description",
                    text: "{{ first name }}")
            ) {
                try Template.load(directory: dir)
            }
        }
        let (template, _) = try TemplateFolder.load([
            "pass.json": #"{"serialNumber": "1", "description": "a {{ b", "logoText": "x }} y"}"#
        ])
        #expect(template.fields.isEmpty)
        let pass = try template.render(ResolvedRecord(values: [:]), context: RenderContext())
        #expect(pass.passJSON["description"] == "a {{ b")
        #expect(pass.passJSON["logoText"] == "x }} y")
    }

    @Test("a placeholder in a member name is not substituted and warns")
    func placeholderInKey() throws {
        let (template, dir) = try TemplateFolder.load([
            "pass.json": #"{"serialNumber": "1", "userInfo": {"{{a}}": "v"}}"#, "template.json": #"{"fields": []}"#,
        ])
        #expect(
            template.warnings == [
                dir + "/pass.json: userInfo[\"{{a}}\"]: the member name contains {{…}}; "
                    + "placeholders are only substituted in values, never in member names, so it stays as written"
            ])
        let pass = try template.render(ResolvedRecord(values: [:]), context: RenderContext())
        #expect(pass.passJSON.at("userInfo")?["{{a}}"] == "v")
    }

    @Test("a missing tier image is an error naming its template.json path")
    func missingTierImage() throws {
        try TemplateFolder.with(text: [
            "pass.json": Self.plainPass,
            "template.json":
                #"{"fields": [{"name": "tier", "type": "enum", "values": ["Gold"]}], "tiers": {"field": "tier", "values": {"Gold": {"images": {"strip.png": "tiers/gold/strip.png"}}}}}"#,
        ]) { dir in
            let error = #expect(throws: TemplateError.self) { try Template.load(directory: dir) }
            #expect(
                error
                    == .missingTierImage(
                        file: dir + "/template.json",
                        path: "tiers.values.Gold.images[\"strip.png\"]",
                        source: "tiers/gold/strip.png"))
            #expect(error?.description.contains("tiers.values.Gold.images[\"strip.png\"]") == true)
        }
    }

    @Test("localizations with different keys warn")
    func inconsistentLocalizations() throws {
        let (template, dir) = try TemplateFolder.load([
            "pass.json": Self.plainPass,
            "en.lproj/pass.strings": "\"a\" = \"A\";\n\"b\" = \"B\";", "fr.lproj/pass.strings": "\"a\" = \"A\";",
        ])
        #expect(template.localizations == ["en.lproj", "fr.lproj"])
        #expect(
            template.warnings == [
                dir + "/fr.lproj/pass.strings: lacks keys that other localizations have: "
                    + "\"b\"; every localization needs the same keys"
            ])
    }

    @Test("a malformed pass.strings fails the load with file and line")
    func badStrings() throws {
        try TemplateFolder.with(text: ["pass.json": Self.plainPass, "en.lproj/pass.strings": "\"a\" = \"A\"\n"]) {
            dir in
            let error = #expect(throws: TemplateError.self) { try Template.load(directory: dir) }
            #expect(error?.description.hasPrefix(dir + "/en.lproj/pass.strings:1: invalid pass.strings") == true)
        }
    }
}
