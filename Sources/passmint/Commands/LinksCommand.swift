import Foundation
import PassMint
import PassStore
import PassOperations

/// `passmint links`: show, revoke, reissue or expire a stored pass's distribution link.
struct LinksCommand: Command {
    static let expires = Option<String>(
        "expires", "DATE", "reissue/expire: the link stops at this time (2027-01-31 or ISO 8601, UTC)")
    static let expiresIn = Option<String>(
        "in", "DURATION", "reissue/expire: the link stops after this long (30d, 12h, 90m, 600s)")

    static let spec = CommandSpec(
        name: "links",
        abstract: "show, revoke, reissue or expire a pass's distribution link",
        usage:
            "links show|revoke|reissue|expire SERIAL [--expires DATE | --in DURATION] [--link-base URL] [--db FILE | --postgres URL]",
        discussion: """
            Every pass stored with a web service URL (or a --link-base) gets an unguessable link, <base>/p/<token>,
            that `passmint serve` answers: an iPhone or Mac gets the pass, any other browser a page with an
            "Add to Apple Wallet" button and a QR code. The store keeps only a SHA-256 hash of the token, so
            `show` prints the link's state, never the link; `reissue` makes a new link (the old one stops working)
            and prints it. `revoke` stops the link at once; `expire` sets when it stops (--expires or --in; now when
            neither is given). Unknown, revoked and expired links answer 404; a voided pass's link answers 410.
            """,
        options: [
            expires,
            expiresIn,
            LinkArguments.option,
        ] + StoreArguments.options(dbHelp: StoreArguments.defaultFileHelp),
        positionals: 2...2,
        examples: [
            "passmint links reissue 3F2A9C… --in 30d --db passmint.db",
            "passmint links revoke 3F2A9C… --db passmint.db",
        ]
    )

    enum Action: String { case show, revoke, reissue, expire }

    let action: Action
    let serial: String
    let expiresAt: Date?
    let linkBase: String?
    let store: StoreLocation

    init(_ args: ParsedArguments) throws(CLIError) {
        guard let action = Action(rawValue: args.positionals[0]) else {
            throw .usage("unknown action '\(args.positionals[0])'; use show, revoke, reissue or expire")
        }
        self.action = action
        serial = args.positionals[1]
        store = try StoreArguments.location(args) ?? .sqlite(path: "passmint.db")
        let at = args[Self.expires], after = args[Self.expiresIn]
        if at != nil || after != nil, action != .reissue, action != .expire {
            throw .usage("--expires and --in go with reissue or expire, not \(action.rawValue)")
        }
        if at != nil, after != nil { throw .usage("give --expires DATE or --in DURATION, not both") }
        if args[LinkArguments.option] != nil, action != .reissue { throw .usage("--link-base goes with reissue only") }
        linkBase = try LinkArguments.base(args)
        do throws(PassMintError) {
            if let at {
                expiresAt = try LinkSettings.expiry(at: at)
            } else if let after {
                expiresAt = try LinkSettings.expiry(in: after)
            } else {
                // `expire` with neither: the link stops now.
                expiresAt = action == .expire ? Date() : nil
            }
        } catch {
            throw CLIError(error)
        }
    }

    func run() throws(CLIError) -> Int32 {
        do {
            let store = try StoreAccess.open(store)
            switch action {
            case .show:
                print(Self.describe(try LinkAdmin.show(serial: serial, store: store)))
            case .revoke:
                print(Self.describe(try LinkAdmin.revoke(serial: serial, store: store)))
            case .reissue:
                let (link, info) = try LinkAdmin.reissue(
                    serial: serial, expiresAt: expiresAt, linkBase: linkBase, store: store)
                print("link: \(link.url)")
                print(Self.describe(info))
            case .expire:
                print(Self.describe(try LinkAdmin.expire(serial: serial, at: expiresAt, store: store)))
            }
            return 0
        } catch {
            throw CLIError(error)
        }
    }

    /// `SERIAL: active, issued …, expires …` in UTC.
    static func describe(_ info: PassLinkInfo) -> String {
        let format = ISO8601DateFormatter()
        var line = "\(info.serialNumber): \(info.state.rawValue), issued \(format.string(from: info.createdAt))"
        line += ", expires " + (info.expiresAt.map { format.string(from: $0) } ?? "never")
        if let revoked = info.revokedAt { line += ", revoked \(format.string(from: revoked))" }
        if info.passVoided { line += "; the pass is voided, so the link answers 410 Gone" }
        return line
    }
}
