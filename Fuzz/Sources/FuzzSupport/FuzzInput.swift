/// One libFuzzer input, and the ways the targets cut it into the several inputs some readers need.
///
/// Every target reads its input with these few rules, so a crash file turns into a regression test by hand and
/// `make-seeds.py` writes seeds the same way: an option byte first where a target has options, parts separated
/// by `separator`.
public struct FuzzInput: Sendable {
    /// Separates the parts of an input that feeds several files (template: pass.json, template.json, …; archive
    /// entries). Several bytes, with NULs, because parts may be binary (PNG, DER, UTF-16 pass.strings) and any
    /// single byte occurs in them; the fuzz dictionaries list it, so mutations can add and drop parts.
    public static let separator: [UInt8] = Array("\u{0}--part--\u{0}".utf8)

    public let bytes: [UInt8]

    /// Copies the bytes libFuzzer hands to a test function (they are only valid during the call).
    public init(_ start: UnsafePointer<UInt8>?, _ count: Int) {
        bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    }

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The first byte as a choice among `count` options (0 for an empty input), and the input after it.
    /// Targets use it to pick an option (an encoding, a limit) so that the fuzzer can mutate it like any byte.
    public func choice(of count: Int) -> (choice: Int, rest: FuzzInput) {
        guard let first = bytes.first else { return (0, self) }
        return (Int(first) % count, FuzzInput(bytes: Array(bytes.dropFirst())))
    }

    /// The parts between separators, in order (an input without a separator is one part).
    public func parts() -> [[UInt8]] {
        let separator = Self.separator
        var parts: [[UInt8]] = []
        var start = 0
        var index = 0
        while index + separator.count <= bytes.count {
            if bytes[index..<index + separator.count].elementsEqual(separator) {
                parts.append(Array(bytes[start..<index]))
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(Array(bytes[start...]))
        return parts
    }

    /// Exactly `count` parts: missing ones empty, separators past the `count - 1`th kept in the last part.
    public func parts(_ count: Int) -> [[UInt8]] {
        var all = self.parts()
        if all.count > count {
            let tail = all[(count - 1)...].joined(separator: Self.separator)
            all = Array(all[..<(count - 1)]) + [Array(tail)]
        }
        while all.count < count { all.append([]) }
        return all
    }
}
