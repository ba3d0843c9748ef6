import Synchronization

/// The tiers (values of the template's tier field, "" for none) whose pass has been rendered and signed once in a
/// store-only batch: one successful render stands for every record of its tier. Shared by the batch's workers.
final class TierRenderChecks: Sendable {
    private struct State {
        var checked: Set<String> = []
        var passType = ""
    }

    private let state = Mutex(State())

    /// True until a record of `tier` has rendered and signed.
    func needsCheck(_ tier: String) -> Bool {
        !state.withLock { $0.checked.contains(tier) }
    }

    /// Records that a pass of `tier` rendered and signed, and the pass type identifier it was issued with.
    func passed(_ tier: String, passType: String) {
        state.withLock {
            $0.checked.insert(tier)
            $0.passType = passType
        }
    }

    /// The pass type identifier of the passes rendered so far (every pass of one batch has the same).
    var passType: String { state.withLock { $0.passType } }
}
