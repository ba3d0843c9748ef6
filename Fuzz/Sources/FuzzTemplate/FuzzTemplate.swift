import FuzzSupport
import PassModel
import PassTemplates

/// Input: parts split at `FuzzInput.separator`: first the record as `key=value` lines, then the template's files,
/// each `path LF content` (pass.json, template.json, tooling.json, xx.lproj/pass.strings, images, tier images).
/// The files are loaded as an in-memory `TemplateSource` (as a zipped template is), the record resolved and the
/// pass rendered, as `passmint generate` does before signing.
@main
enum FuzzTemplate {
    static func main() { FuzzDriver.run(fuzzTemplate) }
}

private func fuzzTemplate(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let parts = FuzzInput(start, count).parts()
    var files: [String: [UInt8]] = [:]
    for part in parts.dropFirst() {
        let newline = part.firstIndex(of: 0x0A) ?? part.endIndex
        files[String(decoding: part[..<newline], as: UTF8.self)] =
            newline < part.endIndex ? Array(part[(newline + 1)...]) : []
    }
    guard let template = try? Template.load(TemplateSource(name: "fuzz", files: files)),
        let record = try? template.resolve(record(parts[0]))
    else { return 0 }
    let context = RenderContext(
        serialNumber: record.values[Template.serialNumberPlaceholder], passTypeIdentifier: "pass.com.example.fuzz",
        teamIdentifier: "FUZZ123456")
    guard let rendered = try? template.render(record, context: context) else { return 0 }
    // Substitution walks the parsed tree, so whatever the record holds, the result is still one JSON object.
    require(rendered.passJSON.objectValue != nil, "a rendered pass.json is not an object")
    _ = JSONWriter.serialize(rendered.passJSON)
    return 0
}

/// `key=value` lines; a line without `=` is a key with an empty value.
private func record(_ bytes: [UInt8]) -> [String: String] {
    var record: [String: String] = [:]
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
        let pair = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        record[String(pair[0])] = pair.count > 1 ? String(pair[1]) : ""
    }
    return record
}
