/// What an archive read from outside may hold. Every limit holds on the bytes actually inflated, never on what a
/// zip header claims, so a decompression bomb is stopped after at most the limit.
public struct ArchiveLimits: Sendable, Equatable {
    /// Most entries (files and folders). A pass has a few dozen; a bundle at most ten passes.
    public var maxEntries: Int
    /// Most inflated bytes of one binary entry (an image, or a pass inside a bundle).
    public var maxEntryBytes: Int
    /// Most inflated bytes of one text entry (`pass.json`, `manifest.json`, any `.json` or `.strings`): Wallet
    /// reads these whole, and a real one is a few KB.
    public var maxTextEntryBytes: Int
    /// Most inflated bytes of all entries together.
    public var maxTotalBytes: Int

    public init(maxEntries: Int, maxEntryBytes: Int, maxTextEntryBytes: Int, maxTotalBytes: Int) {
        self.maxEntries = maxEntries
        self.maxEntryBytes = maxEntryBytes
        self.maxTextEntryBytes = maxTextEntryBytes
        self.maxTotalBytes = maxTotalBytes
    }

    /// A `.pkpass`: 1,000 entries, 16 MiB per image, 1 MiB per JSON or .strings file, 64 MiB in all.
    public static let pass = ArchiveLimits(
        maxEntries: 1_000, maxEntryBytes: 16 << 20, maxTextEntryBytes: 1 << 20, maxTotalBytes: 64 << 20)

    /// A `.pkpasses` bundle: Apple allows ten passes and 150 MB; 100 entries, 64 MiB per pass, 160 MiB in all.
    public static let bundle = ArchiveLimits(
        maxEntries: 100, maxEntryBytes: 64 << 20, maxTextEntryBytes: 1 << 20, maxTotalBytes: 160 << 20)

    /// The per-entry limit for an entry name.
    public func limit(for entry: String) -> Int {
        let lower = entry.lowercased()
        let isText = lower.hasSuffix(".json") || lower.hasSuffix(".strings") || lower.hasSuffix("signature")
        return isText ? maxTextEntryBytes : maxEntryBytes
    }
}
