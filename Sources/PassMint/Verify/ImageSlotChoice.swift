import PassModel

/// Which `ImageSlot` rule an image is checked against: that of the first style of the pass that shows it, trying
/// the style the newest Wallet shows (`posterGeneric` when present) and then the fallback older systems show.
struct ImageSlotChoice {
    /// The rule to check the size with; nil when no style of the pass shows the image.
    var shownRule: ImageSlot?
    /// The styles that would show the image, for the not-shown message.
    var showingStyles: Set<String> = []
    /// The pass's styles as the not-shown message names them: "generic passes", "posterGeneric passes or their
    /// storeCard fallback".
    var stylePhrase: String

    /// nil when there is nothing to check: Wallet has no fixed slot for `base` on the shown style (or Apple has
    /// not confirmed its size there) and no fallback shows it.
    init?(_ base: String, facts: PassFacts) {
        let candidates: [String?] = [facts.style] + (facts.fallbackStyle.map { [$0] } ?? [])
        stylePhrase =
            "\(facts.style ?? "these") passes"
            + (facts.fallbackStyle.map { " or their \($0) fallback" } ?? "")
        var primary: ImageSlot?
        for (index, style) in candidates.enumerated() {
            // iOS 27 shows posterGeneric whatever preferredStyleSchemes asks for.
            let isPoster = style == PassStyle.posterGeneric.rawValue ? false : facts.isPoster
            let rule = ImageSlot.rule(for: base, style: style, isPoster: isPoster)
            if index == 0 { primary = rule }
            guard let rule else { continue }
            if let style, let styles = rule.styles, !styles.contains(style) { continue }
            shownRule = rule
            return
        }
        guard let styles = primary?.styles else { return nil }
        showingStyles = styles
    }
}
