import PassModel

extension PassMintError {
    /// What failed, on which input, and what to do next.
    public var description: String {
        switch self {
        case .template(let error): return error.description
        case .signing(let error): return error.description
        case .archive(let error): return error.description
        case .photo(let error): return error.description
        case .companion(let failure): return failure.description
        case .inspection(let error): return error.description
        case .invalidPass(let file, let problems):
            let lines = problems.map {
                "  \($0.severity.rawValue) \($0.code) at \($0.path.isEmpty ? file : $0.path): \($0.message)"
            }
            return "\(file) is not a valid pass; fix the template or the values:\n" + lines.joined(separator: "\n")
        case .templateNotFound(let path):
            return "template \(path) does not exist; give a folder holding pass.json, or a zipped .pkpasstemplate "
                + "(see Templates/ for examples)"
        case .templateArchive(let path, let problem):
            return Self.words(problem, path: path)
        case .renderedPass(let file, let error):
            return "\(file): \(error)"
        case .invalidSerialNumber(let file, let serial):
            return "\(file): serialNumber '\(serial)' \(IdentifierGrammar.serialNumber.rule); it names "
                + "the pass's file and its web service URL"
        case .recordFile(let path, let problem):
            return Self.words(problem, path: path)
        case .csv(let path, let problem):
            return Self.words(problem, path: path)
        case .invalidLinkBase(let text):
            return "'\(text)' is not a link base; give an absolute http or https URL without query, such as "
                + "https://passes.example.com (links become <base>/p/<token>)"
        case .invalidLinkExpiry(let text, .time):
            return "'\(text)' is not a time; give a date such as 2027-01-31 or a UTC time such as 2027-01-31T18:00:00Z"
        case .invalidLinkExpiry(let text, .duration):
            return
                "'\(text)' is not a duration; give a positive whole number and a unit, such as 30d, 12h, 90m or 600s"
        case .identity(let problem):
            return Self.words(problem)
        case .renewalRefused(let refusal, _):
            return refusal.description
        case .unreadableFile(let path, _):
            return "\(path): no such readable file"
        case .trustRoot(let path, .unreadable(let error)):
            return "trust root \(path): \(error)"
        case .trustRoot(let path, .empty):
            return "trust root \(path) holds no certificate; give a PEM or DER CA certificate"
        case .output(let path, .folderMissing(let folder)):
            return "cannot write \(path): folder \(folder) does not exist; create it first"
        case .output(let path, .writeFailed(let error)):
            return "cannot write \(path): \(error)"
        case .bundle(let path, let error):
            return "bundle \(path): \(error)"
        case .outputFolder(let path, let underlying):
            return "\(path): cannot create the folder: \(underlying.localizedDescription)"
        case .report(let path, .cannotCreate):
            return "\(path): cannot create the report file; check that its folder exists and is writable"
        case .report(let path, .writeFailed(let underlying)):
            return "\(path): writing the report failed: \(underlying.localizedDescription)"
        case .report(let path, .cannotMove):
            return "\(path): cannot move the finished report into place; check the folder's permissions"
        case .webServiceURLWithoutStore:
            return "a web service URL needs a store, so the service can find the passes it issued"
        case .storeOnlyWithoutService:
            return "issuing into the store without pass files needs a store and a web service URL, so the service "
                + "can render each pass when it is first downloaded"
        case .storeOnlyBundle:
            return "bundles are made of pass files; issuing into the store writes none"
        case .sink(.storingPasses(let count), let underlying):
            return "storing \(count) passes failed: \(underlying); check that the database file and its folder are "
                + "writable and have room"
        case .sink(.readingStoredPasses(let lines), let underlying):
            return "reading the stored passes of lines \(lines.lowerBound)–\(lines.upperBound) failed: \(underlying)"
        case .sink(.storingPass(let serial), let underlying):
            return "storing pass \(serial) failed: \(underlying)"
        case .sink(.readingStoredPass(let serial), let underlying):
            return "reading stored pass \(serial) failed: \(underlying)"
        case .sink(.findingTemplatePasses, let underlying):
            return "looking for stored passes of the template failed: \(underlying); check that the store can be "
                + "opened and read"
        case .batchStopped(.output(let line, let failure)):
            return "batch stopped after line \(line): \(failure); fix that and resume the batch "
                + "(resuming re-checks the passes written so far and writes their bundles and store rows again)"
        case .batchStopped(.record(let line, let problem, let issued)):
            return "batch stopped at line \(line) after \(issued) passes: \(problem); fix that and resume the batch "
                + "to issue the rest (the passes written so far are kept)"
        }
    }

    private static func words(_ problem: TemplateArchiveProblem, path: String) -> String {
        switch problem {
        case .unreadable:
            return "template \(path): cannot read the file; check that it exists and is readable"
        case .notAZip(let error):
            return "template \(path): \(error); a zipped template must be a zip of the template "
                + "folder (pass.json, images, tooling.json)"
        case .unsafeEntry(let name):
            return "template \(path): entry '\(name)' points outside the template (absolute path, "
                + "'..' or '\\'); re-create the zip from the template folder"
        case .unreadableEntry(let error):
            return "template \(path): \(error)"
        }
    }

    private static func words(_ problem: RecordFileProblem, path: String) -> String {
        switch problem {
        case .tooLarge(let size, let limit):
            return "\(path): \(size) bytes, more than the \(limit) a record file may hold; give one record"
        case .unreadable:
            return "\(path): cannot read the record file; check the path"
        case .notJSON(let error):
            return error.description
        case .notAnObject:
            return "\(path): expected a JSON object of field values like {\"tier\": \"Gold\"}"
        case .notAScalar(let key, let kind):
            return "\(path): value of \(key) is a \(kind); field values must be strings or numbers"
        }
    }

    private static func words(_ problem: CSVProblem, path: String) -> String {
        switch problem {
        case .cannotOpen:
            return "\(path): cannot open the CSV file; check the path"
        case .empty:
            return "\(path): the CSV file is empty; line 1 must name the template fields"
        case .unreadableHeader(let problem):
            return "\(path):1: the header cannot be read: \(problem); line 1 must name the template fields"
        case .noTemplateColumn(let template, let delimiter, let header, let fields):
            let shown = header.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (header.count > 5 ? ", …" : "")
            return "\(path):1: no column of the header names a field of template \(template) "
                + "(read with the separator \(delimiter.shown): \(header.count) column(s) \(shown)); fields: "
                + fields.joined(separator: ", ") + ". Check the separator and the header — no pass was made"
        case .duplicateColumn(let name):
            return "column '\(name)' appears twice in the header (line 1); remove one"
        case .missingRequiredColumns(let missing, let template):
            return "the header (line 1) has no column for required field(s) \(missing.joined(separator: ", ")) of "
                + "template \(template); add the column(s) — no pass was made"
        }
    }

    private static func words(_ problem: IdentityProblem) -> String {
        switch problem {
        case .pkcs12AndCertificate:
            return "give either a .p12 or a certificate and key, not both"
        case .pkcs12PasswordMissing(let path):
            return "\(path) needs its password: put it in an environment variable and name that variable"
        case .certificateWithoutKey:
            return "a certificate and its key go together; give both (and the WWDR intermediate), or a .p12"
        case .noDevelopmentIdentity(let certificate):
            return "no signing identity: \(certificate) does not exist. Make a development identity "
                + "(`passmint certs dev`), or give your Pass Type ID certificate, its key and the WWDR intermediate "
                + "(or a .p12)"
        case .wwdrMissing:
            return "the WWDR intermediate is needed with a certificate and key: download Apple's WWDR G4 "
                + "intermediate (see Certificates/README.md)"
        case .passwordVariableUnset(let variable):
            return "the environment variable \(variable) is not set; export it first"
        }
    }
}
