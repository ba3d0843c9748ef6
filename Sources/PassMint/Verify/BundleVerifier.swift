import Foundation
import PassArchive
import PassModel
import PassSigning

extension PassVerifier {
    /// A .pkpasses bundle: one report per inner pass, plus a report for the bundle when it is empty, holds
    /// more than `PassBundle.maxPasses` passes, holds other files, or repeats a serial number.
    static func verifyBundle(_ reader: ArchiveReader, name: String, now: Date, trust: TrustRoots)
        -> [VerificationReport]
    {
        var findings = Findings()
        var reports: [VerificationReport] = []
        for error in reader.unreadableEntries {
            findings.error(VerifyCode.archiveUnreadable, error.description)
        }
        for entry in reader.files {
            let inner = "\(name):\(entry.name)"
            if entry.name.lowercased().hasSuffix(".pkpasses") {
                // Bundles do not nest: Wallet opens one level, and reading deeper would multiply the limits.
                findings.error(
                    VerifyCode.bundleUnexpectedEntry,
                    "'\(entry.name)' is a bundle inside the bundle; Wallet does not open nested bundles — put its "
                        + "passes in the outer bundle", path: entry.name)
                continue
            }
            guard entry.name.lowercased().hasSuffix(".pkpass") else {
                findings.warning(
                    VerifyCode.bundleUnexpectedEntry,
                    "'\(entry.name)' is not a .pkpass; a bundle holds only .pkpass files", path: entry.name)
                continue
            }
            reports.append(verify(archive: entry.bytes, name: inner, now: now, trust: trust))
        }
        if reports.isEmpty {
            findings.error(VerifyCode.bundleEmpty, "the bundle holds no .pkpass file; nothing would be added")
        }
        if reports.count > PassBundle.maxPasses {
            findings.error(
                VerifyCode.bundleTooManyPasses,
                "the bundle holds \(reports.count) passes; Wallet accepts at most \(PassBundle.maxPasses) per "
                    + ".pkpasses — split it")
        }
        var seen: [String: String] = [:]
        for report in reports {
            guard let type = report.passTypeIdentifier, let serial = report.serialNumber else { continue }
            let key = type + "\u{0}" + serial
            if let first = seen[key] {
                findings.error(
                    VerifyCode.bundleDuplicateSerial,
                    "\(report.file) and \(first) share pass type \(type) and serial \(serial); the add sheet breaks "
                        + "— give each pass its own serial", path: report.file)
            } else {
                seen[key] = report.file
            }
        }
        guard findings.problems.isEmpty else {
            return [VerificationReport(file: name, problems: findings.problems)] + reports
        }
        return reports
    }

    /// Every .pkpass and .pkpasses file under `directory` (recursively, hidden folders skipped), sorted.
    public static func passFiles(in directory: String) -> [String] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: URL(fileURLWithPath: directory), includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles])
        else { return [] }
        var found: [String] = []
        for case let url as URL in enumerator {
            let ext = url.pathExtension.lowercased()
            guard ext == "pkpass" || ext == "pkpasses" else { continue }
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            found.append(url.path)
        }
        return found.sorted()
    }
}
