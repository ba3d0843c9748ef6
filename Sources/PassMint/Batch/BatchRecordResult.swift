import PassModel

/// The outcome of one CSV record, as written to the report.
public struct BatchRecordResult: Sendable {
    /// What became of the record.
    public enum Status: Sendable {
        /// The record's pass was made, or kept from an earlier run (`resumed`: `--resume` found it valid and
        /// as this run would make it); `IssueKind` says what that did to the store.
        case made(IssueKind, resumed: Bool)
        case failed(BatchRecordProblem)
    }

    public let line: Int
    public let serialNumber: String?
    /// The pass's file name, nil when none was made.
    public let file: String?
    public var status: Status
    /// The pass's absolute distribution link, when it was stored with one (`--db`).
    public var link: String? = nil
    /// The companion's members of the report line (e.g. `googleSaveUrl`).
    public var companionMembers: [String: JSONValue] = [:]

    /// A made pass (`file` nil when store-only issuance wrote none).
    init(line: Int, serialNumber: String, file: String?, kind: IssueKind, resumed: Bool, link: String?) {
        self.line = line
        self.serialNumber = serialNumber
        self.file = file
        status = .made(kind, resumed: resumed)
        self.link = link
    }

    /// A failed record; `serialNumber` when the record's serial was known.
    init(line: Int, serialNumber: String?, failed problem: BatchRecordProblem) {
        self.line = line
        self.serialNumber = serialNumber
        file = nil
        status = .failed(problem)
    }

    /// The record's pass was made (or kept).
    public var issued: Bool {
        if case .made = status { return true }
        return false
    }

    /// True when `--resume` found a valid pass already in place.
    public var resumed: Bool {
        if case .made(_, let resumed) = status { return resumed }
        return false
    }

    /// What the made pass did to the store (`.issued` for a failed record too).
    public var kind: IssueKind {
        if case .made(let kind, _) = status { return kind }
        return .issued
    }

    /// Why the record failed, nil when its pass was made.
    public var problem: BatchRecordProblem? {
        if case .failed(let problem) = status { return problem }
        return nil
    }
}

extension BatchRecordResult: JobOutcome {
    /// `{"line", "serialNumber", "file", "status": "issued"|"updated"|"unchanged"|"failed", "error"}`, with
    /// `"resumed": true` for a kept pass and `"link"` for a stored one (DESIGN.md's contract).
    package var reportObject: [String: JSONValue] {
        var object: [String: JSONValue] = [
            "line": .integer(Int64(line)),
            "serialNumber": serialNumber.map { .string($0) } ?? .null,
            "file": file.map { .string($0) } ?? .null,
            "status": .string(issued ? kind.rawValue : "failed"),
            "error": problem.map { .string($0.description) } ?? .null,
        ]
        if resumed { object["resumed"] = .bool(true) }
        if let link { object["link"] = .string(link) }
        for (key, value) in companionMembers { object[key] = value }
        return object
    }
}
