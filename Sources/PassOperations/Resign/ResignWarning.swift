/// Something `resign` says before it runs; worded by `description`.
package enum ResignWarning: Sendable, Equatable, CustomStringConvertible {
    /// No previous certificate was given, so the new one's team was not compared with the stored passes'.
    case teamNotCompared
    /// About the new identity (close to expiry, say), in the words of the renewal check.
    case identity(String)

    package var description: String {
        switch self {
        case .teamNotCompared:
            return "the team was not compared: give the certificate the passes are signed with now to check that the "
                + "new one belongs to the same team"
        case .identity(let text):
            return text
        }
    }
}
