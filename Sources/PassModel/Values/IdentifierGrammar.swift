/// What a serial number, pass type identifier or device library identifier may contain: the one place these
/// grammars live. Issuing checks a serial against it (so every pass can be fetched and registered by URL, and
/// written as `<serial>.pkpass`), and the web service checks every path parameter against it before any handler
/// or store sees the value.
public enum IdentifierGrammar: Sendable, Equatable {
    /// A pass's serial number: also a file name and a URL path segment.
    case serialNumber
    /// `pass.` and dot-separated labels (`pass.com.example.loyalty`).
    case passTypeIdentifier
    /// Wallet's device library identifier (32 hexadecimal digits from real devices).
    case deviceLibraryIdentifier
    /// Any other URL path parameter.
    case plainSegment

    public var maxLength: Int {
        switch self {
        case .serialNumber: 128
        case .deviceLibraryIdentifier: 128
        case .passTypeIdentifier: 255
        case .plainSegment: 256
        }
    }

    /// The rule in words, for messages (never the value: a device library identifier is a credential).
    public var rule: String {
        switch self {
        case .passTypeIdentifier:
            "must be 'pass.' followed by dot-separated letters, digits and '-', at most \(maxLength) characters"
        case .serialNumber:
            "must be 1 to \(maxLength) ASCII letters, digits, '.', '_' or '-', and not '.' or '..'"
        case .deviceLibraryIdentifier, .plainSegment:
            "must be 1 to \(maxLength) letters, digits, '.', '_' or '-'"
        }
    }

    /// Whether `value` is acceptable.
    public func accepts(_ value: String) -> Bool {
        let bytes = value.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength else { return false }
        switch self {
        case .serialNumber:
            // "." and ".." would name a folder as a file and be folded away in a URL path.
            guard value != ".", value != ".." else { return false }
            return bytes.allSatisfy(Self.isSegmentByte)
        case .deviceLibraryIdentifier, .plainSegment:
            return bytes.allSatisfy(Self.isSegmentByte)
        case .passTypeIdentifier:
            guard value.hasPrefix("pass.") else { return false }
            let labels = bytes.dropFirst(5).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            return labels.allSatisfy { label in
                !label.isEmpty && label.allSatisfy { Self.isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
            }
        }
    }

    private static func isSegmentByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
