extension PassMintError: Equatable {
    /// Errors are equal by kind, as tests match them: the wrapped error's own equality, or the same case and the
    /// same input for PassMint's own cases (never their wording, nor an underlying error that has no equality).
    public static func == (lhs: PassMintError, rhs: PassMintError) -> Bool {
        switch (lhs, rhs) {
        case (.template(let a), .template(let b)): return a == b
        case (.signing(let a), .signing(let b)): return a == b
        case (.archive(let a), .archive(let b)): return a == b
        case (.photo(let a), .photo(let b)): return a == b
        case (.inspection(let a), .inspection(let b)): return a == b
        case (.invalidPass(let a, _), .invalidPass(let b, _)): return a == b
        case (.templateNotFound(let a), .templateNotFound(let b)): return a == b
        case (.templateArchive(let a, let x), .templateArchive(let b, let y)): return a == b && x == y
        case (.renderedPass(let a, let x), .renderedPass(let b, let y)): return a == b && x == y
        case (.invalidSerialNumber(let a, let x), .invalidSerialNumber(let b, let y)): return a == b && x == y
        case (.recordFile(let a, let x), .recordFile(let b, let y)): return a == b && x == y
        case (.csv(let a, let x), .csv(let b, let y)): return a == b && x.kind == y.kind
        case (.invalidLinkBase(let a), .invalidLinkBase(let b)): return a == b
        case (.invalidLinkExpiry(let a, let x), .invalidLinkExpiry(let b, let y)): return a == b && x == y
        case (.identity(let a), .identity(let b)): return a == b
        case (.renewalRefused(let a, _), .renewalRefused(let b, _)): return a == b
        case (.unreadableFile(let a, let x), .unreadableFile(let b, let y)): return a == b && x == y
        case (.trustRoot(let a, let x), .trustRoot(let b, let y)): return a == b && x == y
        case (.output(let a, let x), .output(let b, let y)): return a == b && x == y
        case (.bundle(let a, let x), .bundle(let b, let y)): return a == b && x == y
        case (.outputFolder(let a, _), .outputFolder(let b, _)): return a == b
        case (.report(let a, let x), .report(let b, let y)): return a == b && x.kind == y.kind
        case (.webServiceURLWithoutStore, .webServiceURLWithoutStore): return true
        case (.storeOnlyWithoutService, .storeOnlyWithoutService), (.storeOnlyBundle, .storeOnlyBundle): return true
        case (.sink(let a, _), .sink(let b, _)): return a == b
        case (.batchStopped(let a), .batchStopped(let b)): return a.line == b.line
        case (.companion(let a), .companion(let b)):
            return type(of: a) == type(of: b) && a.description == b.description
        default: return false
        }
    }
}

extension PassMintError.CSVProblem {
    /// The problem without its data, for equality by kind.
    var kind: Int {
        switch self {
        case .cannotOpen: return 0
        case .empty: return 1
        case .unreadableHeader: return 2
        case .noTemplateColumn: return 3
        case .duplicateColumn: return 4
        case .missingRequiredColumns: return 5
        }
    }
}

extension PassMintError.ReportProblem {
    /// The problem without its underlying error, for equality by kind.
    var kind: Int {
        switch self {
        case .cannotCreate: return 0
        case .writeFailed: return 1
        case .cannotMove: return 2
        }
    }
}
