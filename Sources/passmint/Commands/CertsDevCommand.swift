import PassSigning

/// `passmint certs dev`: a local root, a WWDR-like intermediate and a Pass Type ID leaf for development.
struct CertsDevCommand: Command {
    static let dir = Option<String>("dir", "DIR", "output folder (default: $PASSMINT_CERT_DIR, else Certificates/dev)")
    static let passTypeID = Option<String>("pass-type-id", "ID", "pass type identifier (default pass.dev.passmint)")
    static let teamID = Option<String>("team-id", "ID", "team identifier (default PASSMINT01)")
    static let days = Option<Int>.integer("days", "N", "validity of the Pass Type ID certificate in days (default 365)")
    static let nfc = Flag("nfc", "an NFC-enabled (enhanced) Pass Type ID certificate")

    static let spec = CommandSpec(
        name: "certs dev",
        abstract: "make a development signing chain (root CA, WWDR-like intermediate, Pass Type ID certificate)",
        usage: "certs dev [--dir Certificates/dev] [--pass-type-id ID] [--team-id ID] [--days N] [--nfc]",
        discussion: """
            Writes root-ca.pem, wwdr.pem, pass-cert.pem, pass-key.pem (mode 0600) and pass.p12 (password
            passmint-dev). Passes signed with it verify with `openssl cms -verify -CAfile root-ca.pem -purpose any`
            but will not install on an iPhone: for that use a real Pass Type ID certificate (Certificates/README.md).
            --nfc makes the leaf an NFC-enabled one (CN "Pass Type ID with NFC: ID"), as passes with nfc or
            personalization.json (rewards sign-up) need.
            """,
        options: [
            dir,
            passTypeID,
            teamID,
            days,
            nfc,
        ],
        examples: [
            "passmint certs dev",
            "passmint certs dev --dir /tmp/dev --pass-type-id pass.com.example.loyalty --team-id ABCDE12345",
        ]
    )

    let dir: String
    let passTypeID: String
    let teamID: String
    let days: Int
    let nfc: Bool

    init(_ args: ParsedArguments) throws(CLIError) {
        dir = args[Self.dir] ?? IdentityArguments.defaultDirectory()
        passTypeID = args[Self.passTypeID] ?? "pass.dev.passmint"
        teamID = args[Self.teamID] ?? "PASSMINT01"
        days = try args[Self.days] ?? 365
        nfc = args[Self.nfc]
        guard passTypeID.hasPrefix("pass.") else {
            throw .usage("--pass-type-id must start with 'pass.' (reverse DNS), e.g. pass.com.example.loyalty")
        }
    }

    func run() throws(CLIError) -> Int32 {
        do {
            let paths = try DevCertificates.generate(
                directory: dir, passTypeIdentifier: passTypeID, teamIdentifier: teamID, validDays: days, nfc: nfc)
            print("development identity for \(passTypeID) (team \(teamID)) in \(paths.directory):")
            for path in [paths.rootCA, paths.wwdr, paths.certificate, paths.key, paths.pkcs12] { print("  \(path)") }
            print(
                "pass.p12 password: passmint-dev. These certificates are for testing; Wallet on a device rejects them.")
            return 0
        } catch {
            throw .environment("\(error)")
        }
    }
}
