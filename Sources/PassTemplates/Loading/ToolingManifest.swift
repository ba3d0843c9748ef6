import PassModel

/// The `tooling.json` of a Pass Designer `.pkpasstemplate`: authoring metadata, read and checked but never
/// packed into a pass (Apple's builder keeps it in the signed pass; it is not pass content).
public struct ToolingManifest: Sendable, Equatable {
    /// The file's name at the top of the template.
    public static let fileName = "tooling.json"

    /// The Pass Designer version that saved the template.
    public let designerVersion: String?
    /// The pass builder version the template was made for.
    public let builderVersion: String?
    /// Derive the legacy `generic` fallback from `posterGeneric` when rendering (see `CompatibleFallback`).
    public let automaticallyGenerateCompatiblePass: Bool

    public init(
        designerVersion: String? = nil, builderVersion: String? = nil,
        automaticallyGenerateCompatiblePass: Bool = false
    ) {
        self.designerVersion = designerVersion
        self.builderVersion = builderVersion
        self.automaticallyGenerateCompatiblePass = automaticallyGenerateCompatiblePass
    }

    /// Checks a parsed `tooling.json`. Unknown keys are warnings (newer designers may add some).
    /// - Throws: `TemplateError.invalidToolingJSON` naming `file` and the JSON path.
    static func parse(_ value: JSONValue, file: String, warnings: inout [String]) throws(TemplateError)
        -> ToolingManifest
    {
        guard let root = value.objectValue else {
            throw .invalidToolingJSON(
                file: file, path: "",
                message: "the top level must be an object such as "
                    + "{\"designerVersion\": \"1.0\", \"automaticallyGenerateCompatiblePass\": true}, found \(value.kindName)"
            )
        }
        let known = ["designerVersion", "builderVersion", "automaticallyGenerateCompatiblePass"]
        for key in root.keys.sorted() where !known.contains(key) {
            warnings.append(
                "\(file): \(TemplatePath.member("", key)): unknown key, ignored (known keys: "
                    + known.joined(separator: ", ") + ")")
        }
        func version(_ key: String) throws(TemplateError) -> String? {
            guard let item = root[key] else { return nil }
            guard let text = item.stringValue else {
                throw .invalidToolingJSON(
                    file: file, path: key,
                    message: "must be a string such as \"1.0\", found "
                        + "\(item.kindName); quote the version")
            }
            return text
        }
        var automatic = false
        if let item = root["automaticallyGenerateCompatiblePass"] {
            guard let flag = item.boolValue else {
                throw .invalidToolingJSON(
                    file: file, path: "automaticallyGenerateCompatiblePass",
                    message: "must be "
                        + "true or false, found \(item.kindName)")
            }
            automatic = flag
        }
        return ToolingManifest(
            designerVersion: try version("designerVersion"), builderVersion: try version("builderVersion"),
            automaticallyGenerateCompatiblePass: automatic)
    }
}
