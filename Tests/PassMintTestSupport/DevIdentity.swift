import Foundation
import PassSigning

/// One development signing identity per test process (RSA key generation is the slow part), made in process
/// with the same code as `passmint certs dev`: its files for the binary, and the loaded identity for libraries.
public enum DevIdentity {
    /// The pass type identifier and team of the identity.
    public static let passTypeIdentifier = "pass.dev.passmint"
    public static let teamIdentifier = "PASSMINT01"

    /// A folder with `root-ca.pem`, `wwdr.pem`, `pass-cert.pem`, `pass-key.pem` and `pass.p12`.
    public static let directory: String = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("passmint-test-certs-\(getpid())").path
        if !FileManager.default.fileExists(atPath: dir + "/pass-cert.pem") {
            _ = try! DevCertificates.generate(
                directory: dir, passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier)
        }
        return dir
    }()

    /// Like `directory`, with an NFC-enabled ("Pass Type ID with NFC") leaf: what passes with `nfc` or
    /// `personalization.json` need (`passmint certs dev --nfc` makes the same).
    public static let nfcDirectory: String = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("passmint-test-nfc-certs-\(getpid())")
            .path
        if !FileManager.default.fileExists(atPath: dir + "/pass-cert.pem") {
            _ = try! DevCertificates.generate(
                directory: dir, passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier, nfc: true)
        }
        return dir
    }()

    /// `--cert … --key … --wwdr …` of the NFC-enabled identity, for the binary.
    public static var nfcSigningArgs: [String] {
        [
            "--cert", nfcDirectory + "/pass-cert.pem", "--key", nfcDirectory + "/pass-key.pem", "--wwdr",
            nfcDirectory + "/wwdr.pem",
        ]
    }

    /// `--cert … --key … --wwdr …` for the binary.
    public static var signingArgs: [String] {
        [
            "--cert", directory + "/pass-cert.pem", "--key", directory + "/pass-key.pem", "--wwdr",
            directory + "/wwdr.pem",
        ]
    }

    /// The identity, loaded once.
    public static let identity: SigningIdentity = {
        try! SigningIdentity.load(
            certificatePath: directory + "/pass-cert.pem", keyPath: directory + "/pass-key.pem",
            wwdrPath: directory + "/wwdr.pem", keyPassword: nil)
    }()
}
