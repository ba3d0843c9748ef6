import PassGoogle
import PassHTTP
import PassMint
import PassOperations
import PassPreview
import PassServer
import PassStore

/// A library error as the CLI words it: its category chooses the exit code, the input it is about the option
/// that leads the message.
protocol ReportedError: Error, CustomStringConvertible {
    var category: PassMintError.Category { get }
    var about: PassMintError.Input? { get }
}

extension PassMintError: ReportedError {}
extension OperationError: ReportedError {}
extension ServerError: ReportedError {}

extension ReportedError {
    /// The message as the terminal shows it: the library's words, led by the option that sets the input at fault.
    var cliText: String {
        guard let about else { return description }
        return "\(about.option): \(description)"
    }

    /// The CLI form: invalid input exits 1, environment problems exit 3.
    var cli: CLIError {
        category == .invalidInput ? .invalid(cliText) : .environment(cliText)
    }
}

extension StoreError {
    /// A store that cannot be opened or used is the machine's problem (exit 3); a store file is `--db`'s.
    var cli: CLIError {
        if case .cannotOpenFile = self { return .environment("\(PassMintError.Input.store.option): \(description)") }
        return .environment(description)
    }
}

extension CLIError {
    /// Any error a command's libraries throw, as the CLI reports it.
    init(_ error: any Error) {
        switch error {
        case let error as CLIError: self = error
        case let error as GoogleError: self = error.cli()
        case PassMintError.companion(let failure as GoogleError): self = failure.cli()
        case let error as any ReportedError: self = error.cli
        case let error as StoreError: self = error.cli
        case let error as PreviewError: self = error.cli
        default: self = .environment("\(error)")
        }
    }
}
