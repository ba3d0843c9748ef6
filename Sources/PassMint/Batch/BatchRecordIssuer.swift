import Foundation
import PassArchive
import PassModel
import PassSigning
import PassTemplates

/// Turns one CSV record into its pass file and report line: the record's fields, its serial number (given or
/// derived), the pass issued and written, or the one a killed run already wrote (`--resume`). A serial already in
/// the store is issued with the stored pass's token: an update of that pass (or nothing, when the record leaves it
/// as it was), never a second pass that cuts the phones holding the first one off. Safe to use from many threads
/// at once; each call touches only its own record's file.
struct BatchRecordIssuer: Sendable {
    let issuer: PassIssuer
    let options: BatchOptions
    let columns: Columns
    /// Stored with each pass so `serve` finds the template from any working directory.
    let templateAbsolutePath: String
    /// Where records' relative image paths start: the image folder when given, else the CSV's folder.
    let imageFolder: String
    /// The tiers whose first record was rendered and signed (store-only issuance).
    let renderChecks = TierRenderChecks()
    /// The first eight hex digits of every serial this batch derives: its template's identity and CSV's name.
    let serialPrefix: String
    /// What every record's serial material starts with (see `values(of:)`): the template's content digest and the
    /// CSV's file name, each followed by a line break. With the digest, one CSV through two templates (or two
    /// versions of one) never gives two passes the same file name.
    private let materialPrefix: [UInt8]

    init(
        issuer: PassIssuer, options: BatchOptions, columns: Columns, csvName: String, templateIdentity: String,
        templateAbsolutePath: String, imageFolder: String
    ) {
        self.issuer = issuer
        self.options = options
        self.columns = columns
        self.templateAbsolutePath = templateAbsolutePath
        self.imageFolder = imageFolder
        materialPrefix = Array("\(templateIdentity)\n\(csvName)\n".utf8)
        // Of the same two, without the last line break.
        serialPrefix = Self.upperHex(Manifest.sha1Hex(Array(materialPrefix.dropLast())).utf8.prefix(8))
    }

    /// One record's outcome plus what the window's writers need.
    struct WorkResult: Sendable {
        var outcome: BatchRecordResult
        var archive: ArchiveParts?
        var stored: IssuedPassRecord?
    }

    /// A record's values and the serial numbers it may be stored under.
    struct RecordValues {
        /// The used columns, empty cells left out.
        var record: [String: String]
        /// The `serialNumber` column, or the serial derived from the record.
        var serial: String
        /// For a derived serial, the one PassMint derived for the same record before serials were ordered by line:
        /// a pass stored under it is this record's pass.
        var earlierSerial: String?
    }

    /// The record's values and serial numbers, nil when the record cannot be read. The same record in the same file
    /// through the same template always gets the same serial, so `--resume` finds its pass again; another template
    /// gives another serial.
    func values(of input: CSVRecord) -> RecordValues? {
        guard let fields = input.fields, fields.count == columns.names.count else { return nil }
        var record: [String: String] = [:]
        for (name, value) in zip(columns.names, fields) where columns.used.contains(name) && !value.isEmpty {
            record[name] = value
        }
        if let given = record.removeValue(forKey: "serialNumber") {
            return RecordValues(record: record, serial: given)
        }
        // Template identity, CSV name, line and fields, joined as bytes (this runs for every record).
        var material = materialPrefix
        material.reserveCapacity(materialPrefix.count + 12 + fields.reduce(0) { $0 + $1.utf8.count + 1 })
        material += String(input.line).utf8
        material.append(UInt8(ascii: "\n"))
        for (index, field) in fields.enumerated() {
            if index > 0 { material.append(0x1F) }
            material += field.utf8
        }
        let digest = Self.upperHex(Manifest.sha1Hex(material).utf8.prefix(24))
        // Eight hex digits of the batch (template and file), eight of the line, eight of the record: a batch's
        // passes then reach every serial-keyed index of the store in key order, so each index page is written
        // once per window instead of the whole index being rewritten at random.
        let line = String(UInt32(truncatingIfNeeded: input.line), radix: 16, uppercase: true)
        let ordered = serialPrefix + String(repeating: "0", count: 8 - line.utf8.count) + line + digest.prefix(8)
        return RecordValues(record: record, serial: ordered, earlierSerial: digest)
    }

    /// Hex digits upper-cased byte-wise (only a-f change).
    private static func upperHex(_ digits: some Sequence<UInt8>) -> String {
        String(decoding: digits.map { $0 >= 0x61 ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    /// Issues one record (or finds its pass from an earlier run with `--resume`) and writes its file.
    /// - Parameters:
    ///   - values: `values(of:)` of the record, nil when it cannot be read.
    ///   - stored: the window's stored passes, by serial.
    func issue(_ input: BatchInput, values: RecordValues?, stored: [String: StoredIssue]) -> WorkResult {
        switch input {
        case .refused(let line, let problem):
            return Self.failed(line, nil, problem)
        case .record(let record):
            return issue(record, values: values, stored: stored)
        }
    }

    private static func failed(_ line: Int, _ serial: String?, _ problem: BatchRecordProblem) -> WorkResult {
        WorkResult(
            outcome: BatchRecordResult(line: line, serialNumber: serial, failed: problem), archive: nil, stored: nil)
    }

    private func issue(_ input: CSVRecord, values: RecordValues?, stored window: [String: StoredIssue]) -> WorkResult {
        let fields: [String]
        switch input.content {
        case .unreadable(let problem): return Self.failed(input.line, nil, .unreadable(problem))
        case .fields(let read): fields = read
        }
        guard let values else {
            return Self.failed(input.line, nil, .fieldCount(fields.count, header: columns.names.count))
        }
        let record = values.record
        var serial = values.serial
        var stored = window[serial]
        // A pass an earlier version stored under the record's earlier serial stays that member's pass.
        if stored == nil, let earlier = values.earlierSerial, let kept = window[earlier] {
            (serial, stored) = (earlier, kept)
        }
        guard IdentifierGrammar.serialNumber.accepts(serial) else {
            return Self.failed(input.line, serial, .invalidSerial(serial))
        }
        // The stored pass this record is a new version of (none when starting over).
        let previous = options.startOver ? nil : stored
        if let previous, let ours = issuer.identity.certificate.passTypeIdentifier,
            previous.passTypeIdentifier != ours
        {
            return Self.failed(
                input.line, serial, .storedAsOtherType(serial: serial, stored: previous.passTypeIdentifier, signs: ours)
            )
        }
        if options.storeOnly {
            return storeOnly(record: record, serial: serial, line: input.line, previous: previous)
        }
        let fileName = "\(serial).pkpass"
        let path = "\(options.outputDirectory)/\(fileName)"
        var request = IssueRequest(
            record: record, serialNumber: serial, webServiceURL: options.webServiceURL,
            compatiblePass: options.compatiblePass, imageFolder: imageFolder,
            storedImages: previous?.images ?? [:], voided: previous?.voided ?? false)
        if options.resume, let kept = keptPass(at: path, request: request, previous: previous) {
            do {
                return try kept.result(line: input.line, file: fileName, companion: options.companion)
            } catch {
                return Self.failed(input.line, serial, .notIssued(error))
            }
        }
        request.authenticationToken =
            options.webServiceURL == nil ? nil : previous?.authenticationToken ?? AuthenticationToken.generate()
        do {
            let pass = try issuer.issue(request)
            // Before the file is written: a record whose companion fails leaves no pass behind.
            let companion = try options.companion?.render(
                CompanionInput(
                    serialNumber: pass.serialNumber, passJSON: pass.passJSON, pass: try pass.typedPass(),
                    files: pass.files,
                    record: pass.record))
            try PassOutput.write(pass.archiveParts, to: path, durable: false)
            let kind = kind(of: previous, record: pass.record, images: pass.images)
            var row = request.authenticationToken.flatMap {
                storeRow(
                    serial: pass.serialNumber, passType: pass.passTypeIdentifier, record: pass.record,
                    images: pass.images, token: $0, kind: kind, previous: previous)
            }
            row?.companions = companion?.stored ?? [:]
            var outcome = BatchRecordResult(
                line: input.line, serialNumber: serial, file: fileName, kind: kind, resumed: false,
                link: row?.link?.url)
            outcome.companionMembers = companion?.reportMembers ?? [:]
            return WorkResult(outcome: outcome, archive: options.bundle ? pass.archiveParts : nil, stored: row)
        } catch {
            return Self.failed(input.line, serial, .notIssued(error))
        }
    }

    /// Store-only issuance of one record: typed and stored with its token and link, no file written. The first
    /// record of each tier is rendered and signed as well (`renderChecks`), so a template whose passes cannot be
    /// signed fails there and not on a member's first download.
    private func storeOnly(record: [String: String], serial: String, line: Int, previous: StoredIssue?)
        -> WorkResult
    {
        let token = previous?.authenticationToken ?? AuthenticationToken.generate()
        let request = IssueRequest(
            record: record, serialNumber: serial, webServiceURL: options.webServiceURL,
            authenticationToken: token, compatiblePass: options.compatiblePass, imageFolder: imageFolder,
            storedImages: previous?.images ?? [:], voided: previous?.voided ?? false)
        do {
            var made = try issuer.storedRecord(request)
            let tier = issuer.template.tierField.flatMap { made.record[$0] } ?? ""
            if renderChecks.needsCheck(tier) {
                let pass = try issuer.issue(request)
                renderChecks.passed(tier, passType: pass.passTypeIdentifier)
                made = StoredRecord(record: pass.record, images: pass.images, warnings: made.warnings)
            }
            let kind = kind(of: previous, record: made.record, images: made.images)
            let row = storeRow(
                serial: serial, passType: renderChecks.passType, record: made.record, images: made.images,
                token: token, kind: kind, previous: previous)
            let outcome = BatchRecordResult(
                line: line, serialNumber: serial, file: nil, kind: kind, resumed: options.resume && kind == .unchanged,
                link: row?.link?.url)
            return WorkResult(outcome: outcome, archive: nil, stored: row)
        } catch {
            return Self.failed(line, serial, .notIssued(error))
        }
    }

    /// What a record does to the stored pass it names: nothing new stored (issued), a new version (updated), or
    /// nothing at all (unchanged).
    private func kind(of previous: StoredIssue?, record: [String: String], images: [String: [UInt8]]) -> IssueKind {
        guard let previous else { return .issued }
        return previous.isUnchanged(record: record, images: images, webServiceURL: options.webServiceURL)
            ? .unchanged : .updated
    }

    /// The store row of a pass this run issued (or kept): nil for an unchanged one, which is not stored again. A
    /// new pass gets a new distribution link; a new version keeps its link.
    private func storeRow(
        serial: String, passType: String, record: [String: String], images: [String: [UInt8]], token: String,
        kind: IssueKind, previous: StoredIssue?
    ) -> IssuedPassRecord? {
        guard kind != .unchanged else { return nil }
        var row = IssuedPassRecord(
            serialNumber: serial, passTypeIdentifier: passType,
            templateDirectory: templateAbsolutePath, record: record, authenticationToken: token,
            webServiceURL: options.webServiceURL, images: images, link: kind == .issued ? newLink() : nil)
        row.replacesStored = kind == .updated
        row.voided = previous?.voided ?? false
        return row
    }

    /// A pass an earlier run left at `path` that this run would make as it is (`--resume`): it passes `verify`,
    /// and its manifest equals the one this record, template version, token and web service give. With a store,
    /// it is stored too (a kill can fall between writing a window's files and storing its rows).
    private func keptPass(at path: String, request: IssueRequest, previous: StoredIssue?) -> KeptPass? {
        guard let bytes = ResumeCheck.validPass(at: path, trust: options.trustRoots),
            let kept = ResumeCheck.contents(bytes, name: path)
        else { return nil }
        var request = request
        if options.webServiceURL != nil {
            // A stored pass's own token, else the token of a kept pass bound to this web service.
            guard let token = previous?.authenticationToken ?? kept.token, kept.webServiceURL == options.webServiceURL
            else { return nil }
            request.authenticationToken = token
        }
        guard let unsigned = try? issuer.unsigned(request), unsigned.manifest == kept.manifest else { return nil }
        let kind = kind(of: previous, record: unsigned.record, images: unsigned.images)
        let row = request.authenticationToken.flatMap {
            storeRow(
                serial: request.serialNumber ?? "", passType: kept.passType, record: unsigned.record,
                images: unsigned.images, token: $0, kind: kind, previous: previous)
        }
        return KeptPass(
            serial: request.serialNumber ?? "", bytes: bytes, kind: kind, row: row, bundle: options.bundle,
            unsigned: unsigned)
    }

    /// A pass kept from an earlier run, and what it does to the store.
    private struct KeptPass {
        let serial: String
        let bytes: [UInt8]
        let kind: IssueKind
        let row: IssuedPassRecord?
        let bundle: Bool
        /// What this run would make of the record (equal to the kept pass's files).
        let unsigned: UnsignedPass

        /// The record's result; a companion renders the kept pass as it would a new one.
        func result(line: Int, file: String, companion: (any PassCompanion)?) throws(PassMintError) -> WorkResult {
            let made = try companion?.render(
                CompanionInput(
                    serialNumber: serial, passJSON: unsigned.passJSON, pass: try unsigned.typedPass(),
                    files: unsigned.files,
                    record: unsigned.record))
            var outcome = BatchRecordResult(
                line: line, serialNumber: serial, file: file, kind: kind, resumed: true, link: row?.link?.url)
            outcome.companionMembers = made?.reportMembers ?? [:]
            var stored = row
            stored?.companions = made?.stored ?? [:]
            return WorkResult(outcome: outcome, archive: bundle ? ArchiveParts(bytes) : nil, stored: stored)
        }
    }

    /// A fresh distribution link for a pass this batch stores for the first time.
    private func newLink() -> PassLink? {
        (options.linkBase ?? options.webServiceURL).map { PassLink(base: $0, token: .generate()) }
    }

}
