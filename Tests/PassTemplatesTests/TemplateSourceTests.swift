import PassModel
import Testing
@testable import PassTemplates

@Suite("TemplateSource and tooling.json")
struct TemplateSourceTests {
    @Test("tooling.json is read into Template.tooling and never packed into a pass")
    func toolingReadNotPacked() throws {
        let template = try DesignerSample.load()
        #expect(
            template.tooling
                == ToolingManifest(
                    designerVersion: "1.0", builderVersion: "1.2", automaticallyGenerateCompatiblePass: false))
        #expect(!template.generatesCompatiblePass)
        let pass = try template.render(template.resolve([:]), context: RenderContext(serialNumber: "1"))
        #expect(pass.files.map(\.path) == ["icon.png"])
        #expect(template.warnings.isEmpty, "\(template.warnings)")
    }

    @Test("the same template loads from a folder and from memory")
    func folderAndMemory() throws {
        try TemplateFolder.with(DesignerSample.files()) { dir in
            let fromFolder = try Template.load(directory: dir)
            let fromMemory = try Template.load(TemplateSource(name: dir, files: DesignerSample.files()))
            #expect(fromFolder.fields == fromMemory.fields)
            #expect(fromFolder.passJSON == fromMemory.passJSON)
            #expect(fromFolder.tooling == fromMemory.tooling)
            #expect(fromFolder.isDesignerTemplate)  // by its tooling.json; the folder is named "tpl"
        }
    }

    @Test("a zip's single top-level folder is the template; junk and directory entries are dropped")
    func unwrapsTopFolder() throws {
        var files: [String: [UInt8]] = [:]
        for (path, bytes) in DesignerSample.files() { files["club.pkpasstemplate/" + path] = bytes }
        files["club.pkpasstemplate/"] = []
        files["__MACOSX/club.pkpasstemplate/._pass.json"] = [1]
        files["club.pkpasstemplate/.DS_Store"] = [1]
        files["club.pkpasstemplate/en.lproj/._logo.png"] = [1]
        let source = TemplateSource(name: "club.zip", files: files)
        #expect(source.name == "club.zip/club.pkpasstemplate")
        #expect(source.files.keys.sorted() == ["icon.png", "pass.json", "tooling.json"])
        #expect(source.isDesignerTemplate)
        let template = try Template.load(source)
        #expect(template.passJSONFile == "club.zip/club.pkpasstemplate/pass.json")
    }

    @Test("a zip without pass.json names the zip in the error")
    func missingPassJSON() throws {
        #expect(throws: TemplateError.missingPassJSON(directory: "x.zip")) {
            try Template.load(TemplateSource(name: "x.zip", files: ["a/icon.png": [1], "b/logo.png": [2]]))
        }
    }

    @Test(
        "an invalid tooling.json names the file and the JSON path",
        arguments: [
            ("[]", "", "the top level must be an object"),
            ("{\"designerVersion\": 1}", "designerVersion", "must be a string"),
            ("{\"builderVersion\": true}", "builderVersion", "must be a string"),
            (
                "{\"automaticallyGenerateCompatiblePass\": \"yes\"}", "automaticallyGenerateCompatiblePass",
                "must be true or false"
            ),
        ])
    func invalidTooling(json: String, path: String, words: String) throws {
        do {
            _ = try DesignerSample.load(["tooling.json": json])
            Issue.record("expected an error")
        } catch let error as TemplateError {
            guard case .invalidToolingJSON(let file, let got, let message) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(file == "club.pkpasstemplate/tooling.json")
            #expect(got == path)
            #expect(message.contains(words))
        }
    }

    @Test("tooling.json that is not JSON is an invalidJSON error; unknown keys are warnings")
    func toolingNotJSONAndUnknownKeys() throws {
        #expect(throws: TemplateError.self) { try DesignerSample.load(["tooling.json": "{nope"]) }
        let template = try DesignerSample.load(["tooling.json": "{\"designerVersion\": \"2\", \"colour\": 1}"])
        #expect(template.warnings.contains { $0.contains("tooling.json: colour: unknown key") })
    }
}
