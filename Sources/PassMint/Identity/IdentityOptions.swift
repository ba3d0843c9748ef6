import Foundation
import PassSigning

/// Where the signing identity comes from: PEM files, a PKCS#12 file, or the development folder.
public struct IdentityOptions: Sendable {
    public var certificatePath: String?
    public var keyPath: String?
    public var wwdrPath: String?
    public var pkcs12Path: String?
    /// Name of the environment variable holding the .p12 password or the PEM key's passphrase.
    public var passwordEnvironmentVariable: String?
    /// Folder used when no file is given (`passmint certs dev` writes it).
    public var defaultDirectory: String

    public init(
        certificatePath: String? = nil, keyPath: String? = nil, wwdrPath: String? = nil, pkcs12Path: String? = nil,
        passwordEnvironmentVariable: String? = nil, defaultDirectory: String = "Certificates/dev"
    ) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.wwdrPath = wwdrPath
        self.pkcs12Path = pkcs12Path
        self.passwordEnvironmentVariable = passwordEnvironmentVariable
        self.defaultDirectory = defaultDirectory
    }

    /// How messages name the signing certificate: the .p12, the certificate file, or the development one.
    public var certificateName: String {
        pkcs12Path ?? certificatePath ?? "\(defaultDirectory)/pass-cert.pem"
    }

    /// The input that names the signing certificate: the .p12 when one is given, else the certificate.
    public var certificateInput: PassMintError.Input { pkcs12Path == nil ? .certificate : .pkcs12 }

    /// Loads the identity once. Missing files are environment errors; a bad password or a key that does not
    /// match its certificate is reported with both file names.
    public func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws(PassMintError)
        -> SigningIdentity
    {
        let password = try passwordFromEnvironment(environment)
        if let p12 = pkcs12Path {
            if certificatePath != nil || keyPath != nil { throw .identity(.pkcs12AndCertificate) }
            guard let password else { throw .identity(.pkcs12PasswordMissing(p12)) }
            try requireFile(p12, .pkcs12)
            if let wwdrPath { try requireFile(wwdrPath, .wwdr) }
            do {
                return try SigningIdentity.load(pkcs12Path: p12, password: password, wwdrPath: wwdrPath)
            } catch {
                throw .signing(error)
            }
        }
        let dir = defaultDirectory
        let usingDefaults = certificatePath == nil && keyPath == nil
        if !usingDefaults, certificatePath == nil || keyPath == nil {
            throw .identity(.certificateWithoutKey(missing: certificatePath == nil ? .certificate : .key))
        }
        let cert = certificatePath ?? "\(dir)/pass-cert.pem"
        let key = keyPath ?? "\(dir)/pass-key.pem"
        let wwdr = wwdrPath ?? (usingDefaults ? "\(dir)/wwdr.pem" : nil)
        if usingDefaults, !FileManager.default.fileExists(atPath: cert) {
            throw .identity(.noDevelopmentIdentity(certificatePath: cert))
        }
        guard let wwdr else { throw .identity(.wwdrMissing) }
        try requireFile(cert, .certificate)
        try requireFile(key, .key)
        try requireFile(wwdr, .wwdr)
        do {
            return try SigningIdentity.load(certificatePath: cert, keyPath: key, wwdrPath: wwdr, keyPassword: password)
        } catch {
            throw .signing(error)
        }
    }

    /// What is worth saying about a loaded identity: a private key file (or .p12) readable by group or others,
    /// and a signing certificate that expires within 30 days.
    /// - Parameter trust: roots accepted in place of Apple's; an intermediate that is neither Apple's, PassMint's
    ///   development one nor trusted is warned about (no iPhone would add the passes).
    public func warnings(for identity: SigningIdentity, trust: TrustRoots = .none, now: Date = Date()) -> [String] {
        var out: [String] = []
        let generation = AppleWWDR.generation(ofIntermediate: identity.wwdr)
        if !generation.isApplePassIntermediate, generation != .passMintDevelopment,
            trust.root(for: identity.certificate, intermediate: identity.wwdr) == nil
        {
            out.append(
                "the signing intermediate \(identity.wwdr.subject) is not Apple's WWDR and leads to no trusted "
                    + "root; no iPhone will add passes signed with it — sign with your Apple Pass Type ID certificate")
        }
        let secretFile = pkcs12Path ?? keyPath ?? (certificatePath == nil ? "\(defaultDirectory)/pass-key.pem" : nil)
        if let secretFile,
            let mode = (try? FileManager.default.attributesOfItem(atPath: secretFile))?[.posixPermissions]
                as? Int, mode & 0o077 != 0
        {
            out.append(
                "\(secretFile) holds a private key and is readable by " + (mode & 0o007 != 0 ? "others" : "its group")
                    + " (mode \(String(mode & 0o777, radix: 8))); restrict it with chmod 600 \(secretFile)")
        }
        if let expiry = identity.expiryWarning(now: now) { out.append(expiry) }
        return out
    }

    private func passwordFromEnvironment(_ environment: [String: String]) throws(PassMintError) -> String? {
        guard let variable = passwordEnvironmentVariable else { return nil }
        guard let value = environment[variable] else {
            throw .identity(.passwordVariableUnset(variable))
        }
        return value
    }

    private func requireFile(_ path: String, _ input: PassMintError.Input) throws(PassMintError) {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .unreadableFile(path: path, about: input)
        }
    }
}
