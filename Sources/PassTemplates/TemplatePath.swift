/// Builds the JSON paths used in template messages: `tiers.values.Gold.images["strip.png"]`.
/// Member names that are plain identifiers use dot syntax, anything else is quoted in brackets.
enum TemplatePath {
    static func member(_ base: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
            }
        if plain { return base.isEmpty ? key : "\(base).\(key)" }
        return "\(base)[\"\(key)\"]"
    }

    static func index(_ base: String, _ index: Int) -> String {
        "\(base)[\(index)]"
    }
}

/// Edit distance for "did you mean" hints.
enum NearMiss {
    /// The candidate closest to `name` when it is close enough to be a likely typo, else nil.
    static func suggestion(for name: String, in candidates: [String]) -> String? {
        let lower = name.lowercased()
        var best: (String, Int)?
        for c in candidates {
            let d = distance(Array(lower.unicodeScalars), Array(c.lowercased().unicodeScalars))
            if d <= max(1, min(name.count, c.count) / 3), best.map({ d < $0.1 }) ?? true { best = (c, d) }
        }
        return best?.0
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions
    /// ("nmae" → "name" is one edit).
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
