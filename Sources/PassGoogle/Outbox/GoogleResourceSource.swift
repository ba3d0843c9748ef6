import PassMint
import PassStore

/// Builds what the Google worker sends, from what the store holds: the class and object of a stored pass as it
/// is now, and the classes of a published template. `serve` supplies it (it renders through the same template
/// renderer as pass downloads).
package protocol GoogleResourceSource: Sendable {
    /// The pass's class and object now, and what Apple would announce of the change from `delivered` (the record
    /// Google last got) to the stored record.
    func object(for pass: StoredPass, delivered: [String: String]?) throws(GoogleSourceError) -> GoogleObjectUpdate
    /// The classes of the current version of the template `name` (one per class a pass of it can have: per tier
    /// value where tiers change class fields).
    func classes(template name: String) throws(GoogleSourceError) -> [GooglePass]
}

/// One object to write, and its announcement.
package struct GoogleObjectUpdate: Sendable {
    package var pass: GooglePass
    package var announcement: GoogleAnnouncement?

    package init(pass: GooglePass, announcement: GoogleAnnouncement?) {
        self.pass = pass
        self.announcement = announcement
    }
}

/// Why a class or object could not be built from the store.
package enum GoogleSourceError: Error, Sendable, CustomStringConvertible {
    /// The pass does not render (its template, record or images).
    case render(serial: String, PassMintError)
    /// It renders, and Google Wallet cannot take it as it is.
    case mapping(serial: String, GoogleError)
    /// No published template has this name.
    case noTemplate(name: String)
    /// A published template whose default record does not render or map.
    case templateClass(name: String, reason: String)
    /// Not buildable yet, likely soon: a template published a moment before its first pass, with no image base
    /// configured (its images' URLs come from that pass's web service URL). Tried again with back-off.
    case notYet(name: String, reason: String)

    package var description: String {
        switch self {
        case .render(let serial, let error): return "pass \(serial) does not render: \(error.description)"
        case .mapping(let serial, let error): return "pass \(serial) cannot go to Google Wallet: \(error.description)"
        case .noTemplate(let name): return "no published template is named \(name)"
        case .templateClass(let name, let reason): return "template \(name) has no Google class: \(reason)"
        case .notYet(let name, let reason): return "template \(name) has no Google class yet: \(reason)"
        }
    }
}
