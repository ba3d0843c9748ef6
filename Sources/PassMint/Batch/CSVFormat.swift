/// How a CSV file is written: its field separator, its text encoding and the limits it is read with.
public struct CSVFormat: Sendable, Equatable {
    /// The field separator. Nil: detected from the header line (the most frequent of `,` `;` and tab outside
    /// quotes; a comma when none occurs).
    public var delimiter: CSVDelimiter?
    /// The text encoding. Nil: UTF-8, or UTF-16 when the file starts with a UTF-16 byte order mark.
    public var encoding: CSVEncoding?
    public var limits: CSVLimits

    public init(delimiter: CSVDelimiter? = nil, encoding: CSVEncoding? = nil, limits: CSVLimits = CSVLimits()) {
        self.delimiter = delimiter
        self.encoding = encoding
        self.limits = limits
    }
}

/// A CSV field separator.
public enum CSVDelimiter: UInt8, Sendable, CaseIterable {
    case comma = 0x2C
    case semicolon = 0x3B
    case tab = 0x09
    case pipe = 0x7C

    /// Parses `,` `;` `|`, `tab` or `\t` (and the names `comma`, `semicolon`, `pipe`).
    public init?(name: String) {
        switch name.lowercased() {
        case ",", "comma": self = .comma
        case ";", "semicolon": self = .semicolon
        case "\t", "\\t", "tab": self = .tab
        case "|", "pipe": self = .pipe
        default: return nil
        }
    }

    /// How messages show it.
    public var shown: String {
        switch self {
        case .comma: return "','"
        case .semicolon: return "';'"
        case .tab: return "tab"
        case .pipe: return "'|'"
        }
    }
}

/// A CSV text encoding. Everything is turned into UTF-8 as it is read.
public enum CSVEncoding: String, Sendable, CaseIterable {
    case utf8 = "utf-8"
    /// Excel's "Unicode text" is UTF-16LE with a byte order mark.
    case utf16LE = "utf-16le"
    case utf16BE = "utf-16be"
    /// Excel's "CSV" in Western European locales.
    case windows1252 = "windows-1252"
    case latin1 = "latin1"

    /// Parses the usual spellings (`utf-8`, `utf8`, `utf-16`, `cp1252`, `iso-8859-1`, …).
    public init?(name: String) {
        switch name.lowercased().replacingOccurrences(of: "_", with: "-") {
        case "utf-8", "utf8": self = .utf8
        case "utf-16", "utf16", "utf-16le", "utf16le": self = .utf16LE
        case "utf-16be", "utf16be": self = .utf16BE
        case "windows-1252", "cp1252", "windows1252": self = .windows1252
        case "latin1", "latin-1", "iso-8859-1", "iso8859-1": self = .latin1
        default: return nil
        }
    }

    /// The names accepted by `init(name:)`, for messages.
    public static let names = "utf-8, utf-16le, utf-16be, windows-1252, latin1"
}

/// Limits on what one CSV record may hold, so a hostile or broken file cannot take the machine's memory.
public struct CSVLimits: Sendable, Equatable {
    /// Most bytes (UTF-8) of one field. Default 64 KiB: a member's name, address or note is far smaller.
    public var maxFieldBytes: Int
    /// Most bytes of one record, all fields together. Default 1 MiB.
    public var maxRecordBytes: Int
    /// Most fields in one record. Default 1,024.
    public var maxFields: Int

    public init(maxFieldBytes: Int = 64 * 1024, maxRecordBytes: Int = 1024 * 1024, maxFields: Int = 1024) {
        self.maxFieldBytes = maxFieldBytes
        self.maxRecordBytes = maxRecordBytes
        self.maxFields = maxFields
    }
}
