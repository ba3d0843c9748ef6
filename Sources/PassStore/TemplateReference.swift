import PassSigning

/// What a stored pass's `template` column holds for a versioned template: `passmint-template:NAME@<digest>`.
///
/// Other features (install statistics) group passes by `name` from exactly this text, so the format is fixed.
/// A value without the prefix is a folder path stored by an older PassMint, rendered from disk as before.
package struct TemplateReference: Sendable, Hashable, CustomStringConvertible {
    /// What every reference starts with.
    package static let prefix = "passmint-template:"

    /// The template's name (what `templates publish NAME` and install statistics group by).
    package let name: String
    /// The version: lowercase hex SHA-256 of its files' canonical listing.
    package let digest: String

    /// - Throws: `StoreError.invalidTemplateName` when `name` cannot be stored in a reference.
    package init(name: String, digest: String) throws(StoreError) {
        try Self.check(name: name)
        self.name = name
        self.digest = digest
    }

    /// Parses a stored `template` value; nil for a folder path (or anything else that is not a reference).
    package init?(_ text: String) {
        guard text.hasPrefix(Self.prefix), let at = text.lastIndex(of: "@") else { return nil }
        let name = String(text[text.index(text.startIndex, offsetBy: Self.prefix.count)..<at])
        let digest = String(text[text.index(after: at)...])
        guard Self.problem(name: name) == nil, TemplateDigest.isDigest(digest) else { return nil }
        self.name = name
        self.digest = digest
    }

    /// The stored form, `passmint-template:NAME@<digest>`.
    package var description: String { Self.prefix + name + "@" + digest }

    /// The template name a folder or zip path gives: its last path component without `.pkpasstemplate` or
    /// `.zip` (`Templates/status` → `status`, `club.pkpasstemplate` → `club`).
    package static func name(forPath path: String) -> String {
        var last = path
        while last.count > 1, last.hasSuffix("/") { last.removeLast() }
        last = last.split(separator: "/").last.map(String.init) ?? last
        for suffix in [".pkpasstemplate", ".zip"] where last.lowercased().hasSuffix(suffix) && last.count > suffix.count
        {
            last.removeLast(suffix.count)
        }
        return last
    }

    /// Template names are 1-100 characters, no `/`, `@`, whitespace or control characters (they appear in
    /// references, listings and URLs).
    package static func check(name: String) throws(StoreError) {
        if let problem = problem(name: name) { throw .invalidTemplateName(name: name, reason: problem) }
    }

    static func problem(name: String) -> TemplateNameProblem? {
        if name.isEmpty { return .empty }
        if name.count > 100 { return .tooLong }
        if let bad = name.unicodeScalars.first(where: {
            $0 == "/" || $0 == "@" || $0.properties.isWhitespace || $0.properties.generalCategory == .control
        }) {
            return .character(bad)
        }
        return nil
    }
}

/// Why a template name cannot be stored.
package enum TemplateNameProblem: Sendable, Equatable, CustomStringConvertible {
    case empty
    case tooLong
    /// It holds this character (`/`, `@`, a space or a control character).
    case character(Unicode.Scalar)

    package var description: String {
        switch self {
        case .empty: return "it is empty"
        case .tooLong: return "it is longer than 100 characters"
        case .character(let bad):
            return "it contains '\(bad.escaped(asASCII: true))' (no '/', '@', spaces or control characters)"
        }
    }
}

/// The digest of a template version: SHA-256 over the canonical listing of its files.
package enum TemplateDigest {
    /// The files in byte-wise order of their paths, each as `path NUL byte-count NUL bytes`. Paths never hold
    /// NUL and every length is given, so two different sets of files can never produce the same listing; order
    /// and modification times of the folder play no part.
    package static func canonicalListing(_ files: [String: [UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(files.values.reduce(0) { $0 + $1.count + 64 })
        for path in files.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            out += Array(path.utf8)
            out.append(0)
            out += Array(String(files[path]!.count).utf8)
            out.append(0)
            out += files[path]!
        }
        return out
    }

    /// Lowercase hex SHA-256 of the canonical listing.
    package static func digest(_ files: [String: [UInt8]]) -> String {
        SHA256Digest.hex(canonicalListing(files))
    }

    /// 64 lowercase hex digits.
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
