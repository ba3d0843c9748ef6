import PassMint

/// Renders and signs the first pass of each template and tier once, as a check that a change (a bulk update, a
/// new template version) still makes passes Wallet takes, without signing every pass: passes alike in template
/// and tier render alike as far as a refusal goes, so one successful render stands for all of them.
struct TierRenderCheck {
    private var rendered: Set<String> = []

    /// The key of passes that render alike: the stored template and the value of its tier field ("" without one).
    static func key(template: String, tier: String?) -> String {
        template + "\u{0}" + (tier ?? "")
    }

    /// Runs `render` unless a pass with `key` rendered already; a failed render does not count, so the next pass
    /// with that key is tried again.
    mutating func check<E: Error>(_ key: String, _ render: () throws(E) -> Void) throws(E) {
        guard !rendered.contains(key) else { return }
        try render()
        rendered.insert(key)
    }
}
