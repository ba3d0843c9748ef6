import PassService

/// `serve`'s limits on what callers without credentials make it store: Wallet log lines and rewards sign-ups.
enum UnauthenticatedArguments {
    static let retentionDays = Option<Int>.integer(
        "retention-days", "N", "days Wallet log lines and rewards sign-ups are kept (default 30)")
    static let maxLogBytes = Option<Int>.integer(
        "max-log-bytes", "N", "most bytes of Wallet log lines stored (default 8388608; then 429)")
    static let maxPersonalizationBytes = Option<Int>.integer(
        "max-personalization-bytes", "N", "most bytes of rewards sign-ups stored (default 16777216; then 429)")
    static let logBytesPerAddress = count(
        "log-bytes-per-address", "log bytes one client address may send per hour (default 262144; 0: no limit)")
    static let personalizePerAddress = count(
        "personalize-per-address", "personalize requests one client address may make per hour (default 60; 0: no limit)"
    )
    static let options: [any OptionDeclaration] = [
        retentionDays, maxLogBytes, maxPersonalizationBytes, logBytesPerAddress, personalizePerAddress,
    ]

    static func limits(_ args: ParsedArguments) throws(CLIError) -> UnauthenticatedWriteLimits {
        var limits = UnauthenticatedWriteLimits()
        limits.retentionDays = try args[retentionDays] ?? limits.retentionDays
        limits.maxLogBytes = try args[maxLogBytes] ?? limits.maxLogBytes
        limits.maxPersonalizationBytes = try args[maxPersonalizationBytes] ?? limits.maxPersonalizationBytes
        limits.logBytesPerAddressPerHour = try args[logBytesPerAddress] ?? limits.logBytesPerAddressPerHour
        limits.personalizeRequestsPerAddressPerHour =
            try args[personalizePerAddress] ?? limits.personalizeRequestsPerAddressPerHour
        return limits
    }

    /// A whole number of 0 or more (0 turns a per-address budget off).
    private static func count(_ long: String, _ help: String) -> Option<Int> {
        .integer(long, "N", help, in: 0...Int.max, expected: "a whole number, 0 or more (0: no limit)")
    }
}
