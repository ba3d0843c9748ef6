import Foundation
import PassMint
import PassSigning

/// The signing-identity options shared by every command that signs.
enum IdentityArguments {
    static let certificate = Option<String>("cert", "FILE", "Pass Type ID certificate (PEM or DER)")
    static let key = Option<String>("key", "FILE", "its private key (PEM; encrypted keys take --password-env)")
    static let wwdr = Option<String>(
        "wwdr", "FILE", "Apple WWDR intermediate certificate (G4 for certificates issued since 2022)")
    static let pkcs12 = Option<String>(
        "p12", "FILE", "certificate and key as PKCS#12 (.p12 from Keychain Access works)")
    static let passwordVariable = Option<String>(
        "password-env", "VAR", "environment variable holding the .p12 password or key passphrase")
    static let directory = Option<String>(
        "cert-dir", "DIR", "folder used when no file is given (default: $PASSMINT_CERT_DIR, else Certificates/dev)")
    static let options: [any OptionDeclaration] = [certificate, key, wwdr, pkcs12, passwordVariable, directory]

    /// Names the certificate folder for every command, so commands sign from any working folder.
    static let directoryVariable = "PASSMINT_CERT_DIR"

    static func make(
        _ args: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> IdentityOptions {
        IdentityOptions(
            certificatePath: args[certificate], keyPath: args[key], wwdrPath: args[wwdr], pkcs12Path: args[pkcs12],
            passwordEnvironmentVariable: args[passwordVariable],
            defaultDirectory: args[directory] ?? defaultDirectory(environment))
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

/// `--trust-root FILE` (repeatable), shared by verify, generate, batch and serve.
enum TrustArguments {
    static let option = RepeatedOption(
        "trust-root", "FILE", "a test or enterprise root CA accepted in place of Apple's for the chain checks")

    static func load(_ args: ParsedArguments) throws(CLIError) -> TrustRoots {
        do { return try TrustRoots.load(args[option]) } catch { throw CLIError(error) }
    }
}
