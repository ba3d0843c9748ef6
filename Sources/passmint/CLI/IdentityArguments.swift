import Foundation
import PassMint
import PassSigning

/// The signing-identity options shared by every command that signs.
enum IdentityArguments {
    static let options: [OptionSpec] = [
        .value("cert", "FILE", "Pass Type ID certificate (PEM or DER)"),
        .value("key", "FILE", "its private key (PEM; encrypted keys take --password-env)"),
        .value("wwdr", "FILE", "Apple WWDR intermediate certificate (G4 for certificates issued since 2022)"),
        .value("p12", "FILE", "certificate and key as PKCS#12 (.p12 from Keychain Access works)"),
        .value("password-env", "VAR", "environment variable holding the .p12 password or key passphrase"),
        .value(
            "cert-dir", "DIR", "folder used when no file is given (default: $PASSMINT_CERT_DIR, else Certificates/dev)"),
    ]

    /// Names the certificate folder for every command, so commands sign from any working folder.
    static let directoryVariable = "PASSMINT_CERT_DIR"

    static func make(
        _ args: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> IdentityOptions {
        IdentityOptions(
            certificatePath: args.value("cert"), keyPath: args.value("key"), wwdrPath: args.value("wwdr"),
            pkcs12Path: args.value("p12"), passwordEnvironmentVariable: args.value("password-env"),
            defaultDirectory: args.value("cert-dir") ?? defaultDirectory(environment))
    }

    /// `$PASSMINT_CERT_DIR` when set, else `Certificates/dev`.
    static func defaultDirectory(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        environment[directoryVariable].flatMap { $0.isEmpty ? nil : $0 } ?? "Certificates/dev"
    }
}

extension PassMintError.Input {
    /// The option that sets this input on the command line.
    var option: String {
        switch self {
        case .template: "--template"
        case .csv: "--csv"
        case .data: "--data"
        case .out: "--out"
        case .report: "--report"
        case .store: "--db"
        case .webServiceURL: "--web-service-url"
        case .serial: "--serial"
        case .images: "--images"
        case .trustRoot: "--trust-root"
        case .linkBase: "--link-base"
        case .linkExpiry: "--expires"
        case .certificate: "--cert"
        case .key: "--key"
        case .wwdr: "--wwdr"
        case .pkcs12: "--p12"
        case .password: "--password-env"
        }
    }
}

extension PassMintError {
    /// The message as the terminal shows it: the library's words, led by the option that sets the input at fault.
    var cliText: String {
        guard let about else { return description }
        return "\(about.option): \(description)"
    }

    /// The CLI form: invalid input exits 1, environment problems exit 3.
    var cli: CLIError {
        isInvalidInput ? .invalid(cliText) : .environment(cliText)
    }
}

/// `--trust-root FILE` (repeatable), shared by verify, generate, batch and serve.
enum TrustArguments {
    static let option = OptionSpec.value(
        "trust-root", "FILE", "a test or enterprise root CA accepted in place of Apple's for the chain checks",
        repeatable: true)

    static func load(_ args: ParsedArguments) throws(CLIError) -> TrustRoots {
        do { return try TrustRoots.load(args.all("trust-root")) } catch { throw error.cli }
    }
}
