import PassMint

/// `--link-base URL`, shared by generate, batch, serve and links.
enum LinkArguments {
    static let option = Option<String>(
        "link-base", "URL", "where distribution links start, <URL>/p/<token> (default: the web service URL)")

    /// The checked base, nil when not given.
    static func base(_ args: ParsedArguments) throws(CLIError) -> String? {
        guard let text = args[option] else { return nil }
        do { return try LinkSettings.base(text) } catch { throw CLIError(error) }
    }
}
