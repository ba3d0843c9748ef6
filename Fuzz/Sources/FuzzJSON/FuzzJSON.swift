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

private func checkRoundTrip(_ value: JSONValue) {
    for pretty in [true, false] {
        let written = JSONWriter.serialize(value, pretty: pretty)
        guard let again = try? JSONReader.parse(written, file: "written.json") else {
            fatalError("the strict writer's output does not read back: \(String(decoding: written, as: UTF8.self))")
        }
        precondition(again.isStrict, "the strict writer's output needs leniency: \(again.leniencies)")
        precondition(again.value == value, "the strict writer's output reads back as another value")
    }
}
