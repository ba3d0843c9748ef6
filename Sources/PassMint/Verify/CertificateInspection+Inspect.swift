import Foundation
import PassSigning

extension CertificateInspection {
    /// `passmint certs inspect`: reads a certificate file.
    /// - Parameters:
    ///   - path: a PEM (one or more certificates), DER (.cer) or PKCS#12 (.p12/.pfx) file.
    ///   - keyPath: a private key to test against the first certificate.
    ///   - password: the .p12 password or the key's passphrase (default: empty).
    ///   - wwdrPath: the WWDR intermediate, for a .p12 that does not contain it.
    /// - Throws: `PassMintError.unreadableFile` when the file is missing, `.inspection` when it cannot be read
    ///   or parsed.
    public static func inspect(
        path: String, keyPath: String? = nil, password: String? = nil,
        wwdrPath: String? = nil, now: Date = Date()
    ) throws(PassMintError)
        -> CertificateInspection
    {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .unreadableFile(path: path, about: nil)
        }
        do {
            return try read(path: path, keyPath: keyPath, password: password, wwdrPath: wwdrPath, now: now)
        } catch {
            throw .inspection(error)
        }
    }
}
