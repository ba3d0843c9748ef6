import FuzzSupport
import PassModel
import PassTemplates

/// Input: four parts split at `FuzzInput.separator`: pass.json, template.json, en.lproj/pass.strings and the
/// record as `key=value` lines. An empty part means the file is absent (pass.json is always written).
/// The folder is loaded, the record resolved and the pass rendered, as `passmint generate` does before signing.
@main
enum FuzzTemplate {
    static func main() { FuzzDriver.run(fuzzTemplate) }
}

/// `Template.load(directory:)` reads a folder: each input's files are written here first.
private let scratch = ScratchDirectory(name: "template")

private func fuzzTemplate(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let parts = FuzzInput(start, count).parts(4)
    scratch.write("pass.json", parts[0])
    scratch.write("template.json", parts[1].isEmpty ? nil : parts[1])
    scratch.write("en.lproj", nil)
    if !parts[2].isEmpty { scratch.write("en.lproj/pass.strings", parts[2]) }
    guard let template = try? Template.load(directory: scratch.path),
        let record = try? template.resolve(record(parts[3]))
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
