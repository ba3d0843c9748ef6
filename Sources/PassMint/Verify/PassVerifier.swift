import Foundation
import PassArchive
import PassModel
import PassSigning

/// `passmint verify`: everything that can be checked offline about a .pkpass or .pkpasses, reported as
/// problems with stable codes (`VerifyCode`). Never throws and never crashes on bad input: a damaged archive
/// is a report with `archive.unreadable`.
public enum PassVerifier {
    /// Verifies a file on disk: a .pkpass gives one report, a .pkpasses one report per pass inside (named
    /// "bundle.pkpasses:inner.pkpass") plus one for the bundle itself when the bundle has problems of its own.
    /// - Parameters:
    ///   - path: the file to read; also the name used in reports.
    ///   - now: the moment certificate expiry is judged against.
    ///   - trust: roots accepted in place of Apple's for the chain checks.
    public static func verify(file path: String, now: Date = Date(), trust: TrustRoots = .none)
        -> [VerificationReport]
    {
        // Never read more of a file than any archive may hold.
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
            size > ArchiveLimits.bundle.maxTotalBytes
        {
            return [
                unreadable(
                    path,
                    "\(path) is \(size) bytes, more than the \(ArchiveLimits.bundle.maxTotalBytes) "
                        + "bytes a pass or bundle may be (Apple allows 150 MB per bundle); this is not a pass archive")
            ]
        }
        // The Data is dropped as soon as its bytes are copied out, so a large bundle is not held twice.
        guard let bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let reason = !exists ? "no such file" : isDirectory.boolValue ? "it is a directory" : "permission denied"
            return [unreadable(path, "cannot read \(path): \(reason); check the path")]
        }
        return verify(bytes: bytes, name: path, now: now, trust: trust)
    }

    /// Verifies archive bytes, telling a pass from a bundle by the name (`.pkpasses`) or, failing that, by
    /// content (no pass.json, but .pkpass entries).
    public static func verify(bytes: [UInt8], name: String, now: Date = Date(), trust: TrustRoots = .none)
        -> [VerificationReport]
    {
        let reader: ArchiveReader
        let namedBundle = name.lowercased().hasSuffix(".pkpasses")
        do {
            reader = try ArchiveReader(bytes: bytes, name: name, limits: namedBundle ? .bundle : .pass)
        } catch {
            return [unreadable(name, error.description)]
        }
        let looksLikeBundle =
            !reader.contains("pass.json")
            && reader.entryNames.contains { $0.lowercased().hasSuffix(".pkpass") }
        if namedBundle || looksLikeBundle {
            return verifyBundle(reader, name: name, now: now, trust: trust)
        }
        return [verify(reader, name: name, now: now, trust: trust)]
    }

    /// Verifies one .pkpass held in memory.
    /// - Parameters:
    ///   - archive: the .pkpass bytes.
    ///   - name: the name used in the report.
    ///   - now: the moment certificate expiry is judged against.
    public static func verify(archive: [UInt8], name: String, now: Date = Date(), trust: TrustRoots = .none)
        -> VerificationReport
    {
        do {
            return verify(
                try ArchiveReader(bytes: archive, name: name, limits: .pass), name: name, now: now, trust: trust)
        } catch {
            return unreadable(name, error.description)
        }
    }

    static func verify(_ reader: ArchiveReader, name: String, now: Date, trust: TrustRoots) -> VerificationReport {
        var findings = Findings()
        let pass = ArchiveChecks.check(reader, into: &findings)
        let facts = PassJSONChecks.check(pass, into: &findings)
        let manifest = ManifestChecks.check(pass, into: &findings)
        let isDevelopment = SignatureChecks.check(
            pass, manifest: manifest, facts: facts, now: now, trust: trust, into: &findings)
        ImageChecks.check(pass, facts: facts, into: &findings)
        LocalizationChecks.check(pass, into: &findings)
        return VerificationReport(
            file: name, style: facts.style, fallbackStyle: facts.fallbackStyle,
            passTypeIdentifier: facts.passTypeIdentifier,
            serialNumber: facts.serialNumber, problems: findings.problems, isDevelopmentPass: isDevelopment,
            notes: findings.notes)
    }

    static func unreadable(_ name: String, _ message: String) -> VerificationReport {
        VerificationReport(file: name, problems: [Problem(.error, VerifyCode.archiveUnreadable, message, path: "")])
    }
}
