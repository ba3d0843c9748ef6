/// What each path parameter of the route table may contain, by its name (`:device`, `:passType`, `:serial`).
///
/// The one place these grammars live. The router checks every parameter after percent-decoding and before the
/// handler runs, so no handler, and no store query, ever sees a value outside its grammar.
enum ParameterGrammar: Sendable, Equatable {
    /// `:device`, Wallet's device library identifier (32 hexadecimal digits from real devices).
    case deviceLibraryIdentifier
    /// `:passType`, a pass type identifier: `pass.` and dot-separated labels (`pass.com.example.loyalty`).
    case passTypeIdentifier
    /// `:serial`, a pass's serial number as PassMint issues them.
    case serialNumber
    /// Any other parameter name.
    case plainSegment

    /// The grammar of the parameter called `name` in a route pattern.
    static func named(_ name: String) -> ParameterGrammar {
        switch name {
        case "device": .deviceLibraryIdentifier
        case "passType": .passTypeIdentifier
        case "serial": .serialNumber
        default: .plainSegment
        }
    }

    var maxLength: Int {
        switch self {
        case .deviceLibraryIdentifier: 128
        case .passTypeIdentifier: 255
        case .serialNumber, .plainSegment: 256
        }
    }

    /// The rule in words, for the 400 message (never the value: a device library identifier is a credential).
    var rule: String {
        switch self {
        case .passTypeIdentifier:
            "must be 'pass.' followed by dot-separated letters, digits and '-', at most \(maxLength) characters"
        case .deviceLibraryIdentifier, .serialNumber, .plainSegment:
            "must be 1 to \(maxLength) letters, digits, '.', '_' or '-'"
        }
    }

    /// Whether a decoded parameter value is acceptable.
    func accepts(_ value: String) -> Bool {
        let bytes = value.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength else { return false }
        switch self {
        case .deviceLibraryIdentifier, .serialNumber, .plainSegment:
            return bytes.allSatisfy { Self.isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_")
                || $0 == UInt8(ascii: "-") }
        case .passTypeIdentifier:
            guard value.hasPrefix("pass.") else { return false }
            let labels = bytes.dropFirst(5).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            return labels.allSatisfy { label in
                !label.isEmpty && label.allSatisfy { Self.isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
            }
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
