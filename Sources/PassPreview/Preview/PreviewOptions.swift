import Foundation

/// What a preview shows and how.
public struct PreviewOptions: Sendable {
    /// A locale such as `de` or `en_US`: picks `xx.lproj/pass.strings` and formats dates and numbers; nil for
    /// pass.json's own text and US English formats.
    public var locale: String?
    /// Draw the back of the pass beside the front.
    public var showBack: Bool
    /// The zone dates without `ignoresTimeZone` are shown in (the phone's zone).
    public var timeZone: TimeZone
    /// Use the smallest image of each slot (gallery thumbnails) instead of the largest.
    public var smallImages: Bool

    public init(locale: String? = nil, showBack: Bool = false, timeZone: TimeZone = .current, smallImages: Bool = false)
    {
        self.locale = locale
        self.showBack = showBack
        self.timeZone = timeZone
        self.smallImages = smallImages
    }
}
