/// What the iOS 27 linear symbologies can encode. Apple documents no message rules for them [U]; these come
/// from the symbologies themselves (EAN-13, Code 39, Codabar, Interleaved 2 of 5), so verify and lint warn
/// with them and preview can compute the same check digit.
extension BarcodeFormat {
    /// Why `message` cannot be drawn in this format, or nil when it can (always nil for QR, PDF417, Aztec and
    /// Code128, which encode any text in their encoding).
    public func messageProblem(_ message: String) -> String? {
        switch self {
        case .ean13: return Self.ean13Problem(message)
        case .code39:
            return Self.charsetProblem(
                message, allowed: Self.code39Characters, name: "Code 39", list: "0-9, A-Z, space and - . $ / + %",
                whole: message)
        case .codabar: return Self.codabarProblem(message)
        case .i2of5: return Self.i2of5Problem(message)
        default: return nil
        }
    }

    /// The EAN-13 check digit of 12 digits (weights 1, 3, 1, 3, … from the left), nil when `digits` is not
    /// exactly 12 ASCII digits.
    public static func ean13CheckDigit(_ digits: some StringProtocol) -> Int? {
        let values = digits.compactMap { $0.isASCII ? $0.wholeNumberValue : nil }
        guard digits.count == 12, values.count == 12 else { return nil }
        let sum = values.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return (10 - sum % 10) % 10
    }

    static let code39Characters = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -.$/+%")
    static let codabarCharacters = Set("0123456789-$:/.+")
    static let codabarStartStop = Set("ABCD")

    static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }

    /// Thirteen ASCII digits whose last is the mod-10 check digit of the others.
    static func isValidEAN13(_ bytes: String.UTF8View) -> Bool {
        guard bytes.count == 13 else { return false }
        var sum = 0
        for (offset, byte) in bytes.enumerated() {
            guard byte >= 0x30, byte <= 0x39 else { return false }
            let digit = Int(byte - 0x30)
            if offset == 12 { return (10 - sum % 10) % 10 == digit }
            sum += digit * (offset % 2 == 0 ? 1 : 3)
        }
        return false
    }

    static func ean13Problem(_ m: String) -> String? {
        // The usual case, a valid code, read from the bytes; anything else is described from the characters.
        if isValidEAN13(m.utf8) { return nil }
        if let bad = m.first(where: { !isDigit($0) }) {
            return "an EAN-13 message is 13 digits; \"\(m)\" contains \"\(bad)\", which EAN-13 cannot encode"
        }
        if m.count == 12, let check = ean13CheckDigit(m) {
            return
                "an EAN-13 message is 13 digits, the last a check digit; \"\(m)\" has 12 — append the check digit: \"\(m)\(check)\""
        }
        guard m.count == 13, let check = ean13CheckDigit(m.prefix(12)) else {
            return "an EAN-13 message is exactly 13 digits, the last a mod-10 check digit; \"\(m)\" has \(m.count)"
        }
        guard m.last?.wholeNumberValue == check else {
            return
                "EAN-13 \"\(m)\" ends in check digit \(m.last!), but the check digit of \(m.prefix(12)) is \(check) — write \"\(m.prefix(12))\(check)\""
        }
        return nil
    }

    /// `checked` is the part that must use `allowed`; `whole` is the message as written, for the text.
    static func charsetProblem(
        _ checked: some StringProtocol, allowed: Set<Character>, name: String, list: String, whole: String
    ) -> String? {
        var bad: [Character] = []
        for c in checked where !allowed.contains(c) && !bad.contains(c) { bad.append(c) }
        guard !bad.isEmpty else { return nil }
        let shown = bad.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
        var fix = ""
        if whole.uppercased().allSatisfy(allowed.contains) { fix = " — write \"\(whole.uppercased())\"" }
        return "\(name) encodes only \(list); \"\(whole)\" contains \(shown)\(fix)"
    }

    static func codabarProblem(_ m: String) -> String? {
        var body = Substring(m)
        let starts = body.first.map { codabarStartStop.contains($0) } ?? false
        let ends = body.count > 1 && body.last.map { codabarStartStop.contains($0) } == true
        if starts != ends {
            return starts
                ? "Codabar \"\(m)\" starts with the start character \(body.first!) but does not end with a stop character A-D; add one at the end, or remove the start character"
                : "Codabar \"\(m)\" ends with the stop character \(body.last!) but does not start with a start character A-D; add one at the start, or remove the stop character"
        }
        if starts { body = body.dropFirst().dropLast() }
        return charsetProblem(
            body, allowed: codabarCharacters, name: "Codabar",
            list: "0-9 and - $ : / . + (with optional A-D start and stop characters)", whole: m)
    }

    static func i2of5Problem(_ m: String) -> String? {
        if let bad = m.first(where: { !isDigit($0) }) {
            return "I2of5 (interleaved 2 of 5) encodes digits only; \"\(m)\" contains \"\(bad)\""
        }
        if m.count % 2 == 1 {
            return
                "I2of5 (interleaved 2 of 5) encodes digits in pairs, so the count must be even; \"\(m)\" has \(m.count) — add a leading zero: \"0\(m)\""
        }
        return nil
    }
}
