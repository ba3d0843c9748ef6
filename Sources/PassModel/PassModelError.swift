/// Why a pass.json value could not be turned into a `Pass` even leniently.
///
/// Every case names the JSON path inside pass.json; the description says what to write instead.
public enum PassModelError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The value at `path` has a JSON type PassMint cannot store there (e.g. an array where an object belongs).
    /// `expected` describes what belongs there, `found` is the JSON kind that was there.
    case wrongType(path: String, expected: String, found: String)

    /// The JSON path of the offending value ("" for the top level).
    public var path: String {
        switch self {
        case .wrongType(let path, _, _): return path
        }
    }

    public var description: String {
        switch self {
        case .wrongType(let path, let expected, let found):
            let place = path.isEmpty ? "the top level of pass.json" : "pass.json \(path)"
            return "\(place) is \(article(found)) \(found); write \(expected) there"
        }
    }

    private func article(_ word: String) -> String {
        guard let first = word.first else { return "a" }
        return "aeiou".contains(first) ? "an" : "a"
    }
}
