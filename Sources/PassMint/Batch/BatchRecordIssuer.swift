import Foundation
import PassArchive
import PassModel
import PassSigning
import PassTemplates

/// Turns one CSV record into its pass file and report line: the record's fields, its serial number (given or
/// derived), the pass issued and written, or the one a killed run already wrote (`--resume`). Safe to use from
/// many threads at once; each call touches only its own record's file.
struct BatchRecordIssuer: Sendable {
    let issuer: PassIssuer
    let options: BatchOptions
    let columns: Columns
    /// The CSV's file name, part of a derived serial number.
    let csvName: String
    /// Stored with each pass so `serve` finds the template from any working directory.
    let templateAbsolutePath: String
    /// Where records' relative image paths start: the image folder when given, else the CSV's folder.
    let imageFolder: String

    /// One record's outcome plus what the window's writers need.
    struct WorkResult: Sendable {
        var outcome: BatchRecordResult
        var archive: ArchiveParts?
        var stored: IssuedPassRecord?
        /// Set when the record failed because of the machine, not the record (a full disk, a folder that is not
        /// writable): every later record would fail the same way, so the batch stops after this window.
        var environmentFailure = false
        /// The record's bytes are not UTF-8 (the CSV may be in another encoding).
        var invalidEncoding = false
    }

    /// Issues one record (or finds its pass from an earlier run with `--resume`) and writes its file.
    func issue(_ input: CSVRecord) -> WorkResult {
        func failed(_ serial: String?, _ message: String) -> WorkResult {
            WorkResult(
                outcome: BatchRecordResult(
                    line: input.line, serialNumber: serial, file: nil, issued: false, resumed: false, error: message),
                archive: nil, stored: nil)
        }
        guard let fields = input.fields else {
            var result = failed(nil, input.error ?? "unreadable record")
            result.invalidEncoding = input.invalidEncoding
            return result
        }
        guard fields.count == columns.names.count else {
            return failed(
                nil,
                "has \(fields.count) fields but the header has \(columns.names.count); quote values that contain commas"
            )
        }
        var record: [String: String] = [:]
        for (name, value) in zip(columns.names, fields) where columns.used.contains(name) && !value.isEmpty {
            record[name] = value
        }
        let serial = record.removeValue(forKey: "serialNumber") ?? stableSerial(line: input.line, fields: fields)
        guard IdentifierGrammar.serialNumber.accepts(serial) else {
            return failed(
                serial,
                "serialNumber '\(serial)' \(IdentifierGrammar.serialNumber.rule) (it names the file and the pass's URL)"
            )
        }
        let fileName = "\(serial).pkpass"
        let path = "\(options.outputDirectory)/\(fileName)"
        if options.resume, let kept = ResumeCheck.validPass(at: path, trust: options.trustRoots) {
            // With --db the kept pass is stored again: a kill can fall between writing a window's files and storing
            // its rows. A kept pass that lacks this run's web service (or a token) cannot be served: issue it anew.
            let stored = options.webServiceURL.flatMap {
                resumedRecord(kept, path: path, serial: serial, record: record, url: $0)
            }
            if options.webServiceURL == nil || stored != nil {
                var outcome = BatchRecordResult(
                    line: input.line, serialNumber: serial, file: fileName, issued: true, resumed: true, error: nil)
                outcome.link = stored?.link?.url
                return WorkResult(outcome: outcome, archive: options.bundle ? ArchiveParts(kept) : nil, stored: stored)
            }
        }
        let token = options.webServiceURL == nil ? nil : AuthenticationToken.generate()
        do {
            let pass = try issuer.issue(
                IssueRequest(
                    record: record, serialNumber: serial, webServiceURL: options.webServiceURL,
                    authenticationToken: token,
                    compatiblePass: options.compatiblePass, imageFolder: imageFolder))
            try PassOutput.write(pass.archiveParts, to: path, durable: false)
            let stored = token.map {
                IssuedPassRecord(
                    serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier,
                    templateDirectory: templateAbsolutePath, record: pass.record, authenticationToken: $0,
                    webServiceURL: options.webServiceURL, images: pass.images, link: newLink())
            }
            var outcome = BatchRecordResult(
                line: input.line, serialNumber: serial, file: fileName, issued: true, resumed: false, error: nil)
            outcome.link = stored?.link?.url
            return WorkResult(outcome: outcome, archive: options.bundle ? pass.archiveParts : nil, stored: stored)
        } catch {
            var result = failed(serial, error.description)
            result.environmentFailure = !error.isInvalidInput
            return result
        }
    }

    /// The store row of a pass an earlier run wrote (`pass`, the bytes of `path`): its own token, when it carries
    /// `url` as its web service.
    private func resumedRecord(_ pass: [UInt8], path: String, serial: String, record: [String: String], url: String)
        -> IssuedPassRecord?
    {
        guard let reader = try? ArchiveReader(bytes: pass, name: path), let bytes = try? reader.read("pass.json"),
            let json = try? JSONReader.parse(bytes, file: path).value,
            json["webServiceURL"]?.stringValue == url,
            let token = json["authenticationToken"]?.stringValue, !token.isEmpty,
            let resolved = try? issuer.template.resolve(record)
        else { return nil }
        var values = resolved.values
        if options.compatiblePass { values[IssueRequest.compatiblePassKey] = "true" }
        // The record's photos are stored as the kept pass carries them (the scaled files, not the originals).
        var images: [String: [UInt8]] = [:]
        for slot in resolved.images.keys {
            for scale in PhotoFiles.scales {
                let name = PhotoFiles.fileName(slot: slot, scale: scale)
                guard let image = try? reader.read(name) else { return nil }
                images[name] = image
            }
        }
        return IssuedPassRecord(
            serialNumber: serial, passTypeIdentifier: json["passTypeIdentifier"]?.stringValue ?? "",
            templateDirectory: templateAbsolutePath, record: values, authenticationToken: token,
            webServiceURL: url, images: images, link: newLink())
    }

    /// A fresh distribution link for a pass this batch stores: stored again (a resumed pass too), its link is
    /// issued anew, and the report carries the one that works.
    private func newLink() -> PassLink? {
        (options.linkBase ?? options.webServiceURL).map { PassLink(base: $0, token: .generate()) }
    }

    /// The same record in the same file always gets the same serial, so `--resume` finds its pass again.
    private func stableSerial(line: Int, fields: [String]) -> String {
        let material = "\(csvName)\n\(line)\n" + fields.joined(separator: "\u{1F}")
        // The first 24 hex digits, upper-cased byte-wise (only a-f change).
        let digits = Manifest.sha1Hex(Array(material.utf8)).utf8.prefix(24).map { $0 >= 0x61 ? $0 - 0x20 : $0 }
        return String(decoding: digits, as: UTF8.self)
    }

}
