import PassModel

/// What every lint rule reads: the pass, its layout as the preview draws it, its images and, for a template,
/// the template behind it.
struct LintContext {
    let source: PreviewSource
    let style: PreviewStyle
    let structure: PassStructure
    let images: PassImages
    var pass: Pass { source.pass }

    init?(_ source: PreviewSource) {
        guard let style = PreviewStyle(source.pass), let structure = source.pass[style.dictionary] else { return nil }
        self.source = source
        self.style = style
        self.structure = structure
        images = PassImages(files: source.files, localizedFolder: nil)
    }

    /// The JSON path of `group` in the drawn style dictionary.
    func path(_ group: PassFieldGroup) -> String { style.dictionary.rawValue + "." + group.rawValue }

    /// The JSON path of the `index`-th field of `group`.
    func path(_ group: PassFieldGroup, _ index: Int) -> String { path(group) + "[\(index)]" }

    /// Every field of the drawn style with its group and index.
    var fields: [(group: PassFieldGroup, index: Int, field: PassField)] {
        PassFieldGroup.allCases.flatMap { g in (structure[g] ?? []).enumerated().map { (g, $0.offset, $0.element) } }
    }

    /// `"text"` for Before/After columns.
    static func quote(_ s: String) -> String { "\"\(s)\"" }
}
