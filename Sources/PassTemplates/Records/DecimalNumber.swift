/// An exact signed decimal read from a number field's normalised text, for additions and bounds: digit arithmetic,
/// never binary floating point, so 12.50 + 0.10 is 12.60 and a bound of 0.1 means exactly 0.1.
struct DecimalNumber: Sendable, Equatable {
    /// The magnitude's digits (0…9) without the point, most significant first, at least one.
    private(set) var digits: [UInt8]
    /// How many of `digits` follow the point.
    private(set) var scale: Int
    private(set) var negative: Bool

    /// Reads `[-]digits[.digits]` (what `FieldValue` normalises integer and decimal values to); nil otherwise.
    init?(_ text: some StringProtocol) {
        var body = Substring(text)
        negative = body.first == "-"
        if negative { body.removeFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard FieldValue.isDigits(parts[0]), parts.count == 1 || FieldValue.isDigits(parts[1]) else { return nil }
        let fraction = parts.count > 1 ? parts[1] : ""
        digits = (parts[0] + fraction).utf8.map { $0 - 0x30 }
        scale = fraction.count
        trimLeadingZeros()
    }

    private init(digits: [UInt8], scale: Int, negative: Bool) {
        self.digits = digits
        self.scale = scale
        self.negative = negative
        trimLeadingZeros()
    }

    var isZero: Bool { digits.allSatisfy { $0 == 0 } }

    /// The text with exactly `scale` digits after the point (none for 0), no `+`, no `-` for zero.
    var text: String {
        var all = digits
        while all.count <= scale { all.insert(0, at: 0) }
        let whole = all[..<(all.count - scale)].map { Character(Unicode.Scalar($0 + 0x30)) }
        let fraction = all[(all.count - scale)...].map { Character(Unicode.Scalar($0 + 0x30)) }
        return (negative && !isZero ? "-" : "") + String(whole) + (scale > 0 ? "." + String(fraction) : "")
    }

    /// The same number with `scale` digits after the point (`scale` at least the current one).
    func widened(to scale: Int) -> DecimalNumber {
        guard scale > self.scale else { return self }
        return DecimalNumber(
            digits: digits + Array(repeating: 0, count: scale - self.scale), scale: scale, negative: negative)
    }

    static func + (a: DecimalNumber, b: DecimalNumber) -> DecimalNumber {
        let scale = max(a.scale, b.scale)
        let x = a.widened(to: scale), y = b.widened(to: scale)
        if x.negative == y.negative {
            return DecimalNumber(digits: add(x.digits, y.digits), scale: scale, negative: x.negative)
        }
        // Opposite signs: the larger magnitude keeps its sign.
        if compareMagnitudes(x.digits, y.digits) >= 0 {
            return DecimalNumber(digits: subtract(x.digits, y.digits), scale: scale, negative: x.negative)
        }
        return DecimalNumber(digits: subtract(y.digits, x.digits), scale: scale, negative: y.negative)
    }

    /// -1, 0 or 1 as `a` is below, equal to or above `b`.
    static func compare(_ a: DecimalNumber, _ b: DecimalNumber) -> Int {
        let scale = max(a.scale, b.scale)
        let x = a.widened(to: scale), y = b.widened(to: scale)
        let signX = x.isZero ? 0 : (x.negative ? -1 : 1), signY = y.isZero ? 0 : (y.negative ? -1 : 1)
        guard signX == signY else { return signX < signY ? -1 : 1 }
        let magnitude = compareMagnitudes(x.digits, y.digits)
        return signX < 0 ? -magnitude : magnitude
    }

    private mutating func trimLeadingZeros() {
        while digits.count > scale + 1, digits.first == 0 { digits.removeFirst() }
        if digits.isEmpty { digits = [0] }
    }

    private static func compareMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let x = Array(a.drop { $0 == 0 }), y = Array(b.drop { $0 == 0 })
        if x.count != y.count { return x.count < y.count ? -1 : 1 }
        for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
        return 0
    }

    /// Magnitudes of the same scale, added.
    private static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var carry: UInt8 = 0
        var i = a.count - 1, j = b.count - 1
        while i >= 0 || j >= 0 || carry > 0 {
            let sum = (i >= 0 ? a[i] : 0) + (j >= 0 ? b[j] : 0) + carry
            result.append(sum % 10)
            carry = sum / 10
            i -= 1
            j -= 1
        }
        return result.reversed()
    }

    /// `a - b` for magnitudes of the same scale with `a >= b`.
    private static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var borrow: Int = 0
        var i = a.count - 1, j = b.count - 1
        while i >= 0 {
            var difference = Int(a[i]) - (j >= 0 ? Int(b[j]) : 0) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 10 }
            result.append(UInt8(difference))
            i -= 1
            j -= 1
        }
        return result.reversed()
    }
}
