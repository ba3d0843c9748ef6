import Foundation
@_exported import PassMintTestSupport
import PassArchive
import PassSigning

@testable import PassMint

/// Helpers for the verify tests: fixture paths, temporary folders, a dev identity and signed test passes.
enum VerifyTestSupport {

    static let passTypeIdentifier = "pass.test.verify"
    static let teamIdentifier = "VERIFYTEAM"

    /// A dev identity generated once per test run (RSA key generation is the slow part); its files are removed
    /// as soon as the identity is loaded.
    static let identity: SigningIdentity = {
        let directory = NSTemporaryDirectory() + "passmint-verify-identity-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let paths = try! DevCertificates.generate(
            directory: directory, passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier)
        return try! SigningIdentity.load(
            certificatePath: paths.certificate, keyPath: paths.key, wwdrPath: paths.wwdr, keyPassword: nil)
    }()

    /// A PNG header (signature + IHDR) of the given size; enough for the size checks.
    static func png(_ width: Int, _ height: Int) -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        return ImageInfo.pngSignature + be32(13) + Array("IHDR".utf8) + be32(width) + be32(height)
            + [8, 6, 0, 0, 0] + [0, 0, 0, 0] + be32(0) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    }

    /// A valid generic pass.json for the test identity.
    static func passJSON(extra: String = "") -> [UInt8] {
        Array(
            """
            {"formatVersion": 1, "passTypeIdentifier": "\(passTypeIdentifier)", "serialNumber": "SERIAL-0001",
             "teamIdentifier": "\(teamIdentifier)", "organizationName": "PassMint Tests",
             "description": "Test pass", \(extra)
             "generic": {"primaryFields": [{"key": "name", "label": "Name", "value": "Ada"}]}}
            """.utf8)
    }

    /// The files of a good generic pass (before manifest and signature): the icon at all three scales, as Apple's
    /// validator recommends.
    static func goodFiles(passJSON json: [UInt8] = passJSON()) -> [ArchiveEntry] {
        [
            ArchiveEntry(name: "pass.json", bytes: json),
            ArchiveEntry(name: "icon.png", bytes: png(29, 29)),
            ArchiveEntry(name: "icon@2x.png", bytes: png(58, 58)),
            ArchiveEntry(name: "icon@3x.png", bytes: png(87, 87)),
            ArchiveEntry(name: "logo.png", bytes: png(120, 40)),
        ]
    }

    /// Builds a signed .pkpass from `files`.
    /// - Parameters:
    ///   - manifestFiles: the files listed in the manifest (default: `files`).
    ///   - extraEntries: entries added to the zip after signing (not in the manifest).
    ///   - sign: whether to add a signature.
    static func makePass(
        _ files: [ArchiveEntry], manifestFiles: [ArchiveEntry]? = nil,
        extraEntries: [ArchiveEntry] = [], sign: Bool = true
    ) throws -> [UInt8] {
        let manifest = Manifest.build((manifestFiles ?? files).map { ($0.name, Manifest.sha1Hex($0.bytes)) })
        var entries = files + extraEntries + [ArchiveEntry(name: "manifest.json", bytes: manifest)]
        if sign {
            entries.append(ArchiveEntry(name: "signature", bytes: try PassSigner(identity: identity).sign(manifest)))
        }
        return try ArchiveWriter.makeArchive(entries)
    }
}
