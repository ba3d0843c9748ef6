import Foundation

/// Escaping for text and attribute values in the preview's HTML (and the service's link landing page).
public enum HTMLText {
    /// `s` with `& < > " '` escaped, safe in text and in double-quoted attributes.
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    /// Back-field text: escaped, line breaks kept, and `<a href="…">…</a>` from an attributedValue turned back
    /// into a link (the only markup Wallet allows); web and mail addresses and phone numbers become links as
    /// Wallet's default data detectors make them.
    static func backValue(_ s: String, detectLinks: Bool) -> String {
        var out = ""
        var rest = Substring(s)
        while let open = rest.range(of: "<a href=\""), let close = rest[open.upperBound...].range(of: "\">"),
            let end = rest[close.upperBound...].range(of: "</a>")
        {
            out += linkify(String(rest[..<open.lowerBound]), detectLinks)
            let href = String(rest[open.upperBound..<close.lowerBound])
            let text = String(rest[close.upperBound..<end.lowerBound])
            out += "<a href=\"\(escape(href))\">\(escape(text))</a>"
            rest = rest[end.upperBound...]
        }
        out += linkify(String(rest), detectLinks)
        return out.replacingOccurrences(of: "\n", with: "<br>")
    }

    private static func linkify(_ s: String, _ detect: Bool) -> String {
        guard detect else { return escape(s) }
        return s.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            let w = String(word)
            return w.split(separator: "\n", omittingEmptySubsequences: false).map { part -> String in
                let p = String(part)
                if p.hasPrefix("https://") || p.hasPrefix("http://") {
                    return "<a href=\"\(escape(p))\">\(escape(p))</a>"
                }
                if p.contains("@"), p.contains("."), !p.hasPrefix("@") {
                    return "<a href=\"mailto:\(escape(p))\">\(escape(p))</a>"
                }
                return escape(p)
            }.joined(separator: "\n")
        }.joined(separator: " ")
    }
}
