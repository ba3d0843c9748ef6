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

    /// The schemes a preview writes links with; any other link (`javascript:`, `data:`, `file:`, a relative path)
    /// is shown as text.
    public static let linkSchemes: Set<String> = ["http", "https", "tel", "mailto"]

    /// `href` as a browser reads it (spaces and control characters around it dropped, tabs and line breaks inside
    /// it removed), when its scheme is one of `linkSchemes`; nil for anything else.
    public static func safeLink(_ href: String) -> String? {
        let isControlOrSpace: (Unicode.Scalar) -> Bool = { $0.value <= 0x20 }
        var scalars = Substring(href).unicodeScalars.drop(while: isControlOrSpace)
        while let last = scalars.last, isControlOrSpace(last) { scalars = scalars.dropLast() }
        let cleaned = String(String.UnicodeScalarView(scalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }))
        guard let colon = cleaned.firstIndex(of: ":") else { return nil }
        let scheme = cleaned[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
            scheme.unicodeScalars.allSatisfy({
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
            }),
            linkSchemes.contains(scheme.lowercased())
        else { return nil }
        return cleaned
    }

    /// Back-field text: escaped, line breaks kept, and `<a href="…">…</a>` from an attributedValue turned back
    /// into a link (the only markup Wallet allows) when its target is a web, mail or phone address (its text alone
    /// otherwise); web and mail addresses become links as Wallet's default data detectors make them.
    static func backValue(_ s: String, detectLinks: Bool) -> String {
        var out = ""
        var rest = Substring(s)
        while let open = rest.range(of: "<a href=\""), let close = rest[open.upperBound...].range(of: "\">"),
            let end = rest[close.upperBound...].range(of: "</a>")
        {
            out += linkify(String(rest[..<open.lowerBound]), detectLinks)
            let href = String(rest[open.upperBound..<close.lowerBound])
            let text = String(rest[close.upperBound..<end.lowerBound])
            if let link = safeLink(href) {
                out += "<a href=\"\(escape(link))\">\(escape(text))</a>"
            } else {
                out += escape(text)
            }
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
                if p.hasPrefix("https://") || p.hasPrefix("http://"), let link = safeLink(p) {
                    return "<a href=\"\(escape(link))\">\(escape(p))</a>"
                }
                if p.contains("@"), p.contains("."), !p.hasPrefix("@"), let link = safeLink("mailto:" + p) {
                    return "<a href=\"\(escape(link))\">\(escape(p))</a>"
                }
                return escape(p)
            }.joined(separator: "\n")
        }.joined(separator: " ")
    }
}
