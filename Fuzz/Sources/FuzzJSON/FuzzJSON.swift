import FuzzSupport
import PassModel

/// Input: pass.json bytes. Read leniently, typed as a `Pass`, validated raw and typed; the strict writer's output
/// must read back strictly as the same value (the writer is what every signed pass.json comes from).
@main
enum FuzzJSON {
    static func main() { FuzzDriver.run(fuzzJSON) }
}

private func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(start, count).bytes
    guard let document = try? JSONReader.parse(input, file: "pass.json") else { return 0 }
    _ = PassValidator.validate(document.value)
    checkRoundTrip(document.value)
    if let (pass, _) = try? Pass.parse(document.value) {
        _ = pass.validate()
        checkRoundTrip(pass.jsonValue)
    }
    return 0
}

/// Pretty only: it is what signed passes carry, and compact output differs from it in whitespace alone.
private func checkRoundTrip(_ value: JSONValue) {
    let written = JSONWriter.serialize(value, pretty: true)
    guard let again = try? JSONReader.parse(written, file: "written.json") else {
        fatalError("the strict writer's output does not read back: \(String(decoding: written, as: UTF8.self))")
    }
    require(again.isStrict, "the strict writer's output needs leniency: \(again.leniencies)")
    require(same(again.value, value), "the strict writer's output reads back as another value: \(again.value)")
}

/// Equal as JSON: a whole double is written as an integer on purpose (`JSONWriter.formatDouble`), so numbers
/// compare by value.
private func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.integer, .double), (.double, .integer), (.double, .double): return a.doubleValue == b.doubleValue
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(same)
    case (.object(let x), .object(let y)):
        return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
    default: return a == b
    }
}
