import PassService

/// `serve`'s limits on what callers without credentials make it store: Wallet log lines and rewards sign-ups.
enum UnauthenticatedArguments {
    static let options: [OptionSpec] = [
        .value("retention-days", "N", "days Wallet log lines and rewards sign-ups are kept (default 30)"),
        .value("max-log-bytes", "N", "most bytes of Wallet log lines stored (default 8388608; then 429)"),
        .value("max-personalization-bytes", "N", "most bytes of rewards sign-ups stored (default 16777216; then 429)"),
        .value(
            "log-bytes-per-address", "N", "log bytes one client address may send per hour (default 262144; 0: no limit)"
        ),
        .value(
            "personalize-per-address", "N",
            "personalize requests one client address may make per hour (default 60; 0: no limit)"),
    ]

    static func limits(_ args: ParsedArguments, of spec: CommandSpec) throws(CLIError) -> UnauthenticatedWriteLimits {
        var limits = UnauthenticatedWriteLimits()
        limits.retentionDays = try args.integer("retention-days", of: spec) ?? limits.retentionDays
        limits.maxLogBytes = try args.integer("max-log-bytes", of: spec) ?? limits.maxLogBytes
        limits.maxPersonalizationBytes =
            try args.integer("max-personalization-bytes", of: spec) ?? limits.maxPersonalizationBytes
        limits.logBytesPerAddressPerHour =
            try count("log-bytes-per-address", args) ?? limits.logBytesPerAddressPerHour
        limits.personalizeRequestsPerAddressPerHour =
            try count("personalize-per-address", args) ?? limits.personalizeRequestsPerAddressPerHour
        return limits
    }

    /// A whole number of 0 or more (0 turns a per-address budget off).
    private static func count(_ name: String, _ args: ParsedArguments) throws(CLIError) -> Int? {
        guard let text = args.value(name) else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw .usage("--\(name) needs a whole number, 0 or more (0: no limit), not '\(text)'")
        }
        return value
    }
}
