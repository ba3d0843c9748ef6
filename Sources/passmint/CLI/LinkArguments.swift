import PassMint

/// `--link-base URL`, shared by generate, batch, serve and links.
enum LinkArguments {
    static let option = OptionSpec.value(
        "link-base", "URL", "where distribution links start, <URL>/p/<token> (default: the web service URL)")

    /// The checked base, nil when not given.
    static func base(_ args: ParsedArguments) throws(CLIError) -> String? {
        guard let text = args.value("link-base") else { return nil }
        do { return try LinkSettings.base(text) } catch { throw error.cli }
    }
}
