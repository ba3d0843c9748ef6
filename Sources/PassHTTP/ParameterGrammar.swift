import PassModel

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

    /// The shared grammar (PassModel's `IdentifierGrammar`) this parameter follows.
    var identifier: IdentifierGrammar {
        switch self {
        case .deviceLibraryIdentifier: .deviceLibraryIdentifier
        case .passTypeIdentifier: .passTypeIdentifier
        case .serialNumber: .serialNumber
        case .plainSegment: .plainSegment
        }
    }

    var maxLength: Int { identifier.maxLength }

    /// The rule in words, for the 400 message (never the value: a device library identifier is a credential).
    var rule: String { identifier.rule }

    /// Whether a decoded parameter value is acceptable.
    func accepts(_ value: String) -> Bool { identifier.accepts(value) }
}
