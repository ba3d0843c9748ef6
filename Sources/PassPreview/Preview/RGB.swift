import Foundation
import PassModel

/// An sRGB colour, with the WCAG 2 relative luminance and contrast ratio lint and preview judge text by.
public struct RGB: Sendable, Hashable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        (self.r, self.g, self.b) = (r, g, b)
    }

    /// The colour of a pass.json colour value, nil when it is not one PassMint can read.
    public init?(_ value: PassColorValue?) {
        guard let c = value?.components else { return nil }
        self.init(c.r, c.g, c.b)
    }

    /// WCAG 2 relative luminance, 0 (black) … 1 (white).
    public var luminance: Double {
        func channel(_ v: UInt8) -> Double {
            let c = Double(v) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }

    /// WCAG 2 contrast ratio against `other`, 1…21.
    public func contrast(with other: RGB) -> Double {
        let (a, b) = (luminance, other.luminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// `rgb(r, g, b)`, as pass.json and CSS write it.
    public var description: String { PassColor.format(r: r, g: g, b: b) }

    /// This colour mixed with `other`; `amount` 0 keeps this one, 1 gives `other`.
    public func mixed(with other: RGB, _ amount: Double) -> RGB {
        func m(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) * (1 - amount) + Double(b) * amount).rounded()) }
        return RGB(m(r, other.r), m(g, other.g), m(b, other.b))
    }

    public static let white = RGB(255, 255, 255)
    public static let black = RGB(0, 0, 0)
}
