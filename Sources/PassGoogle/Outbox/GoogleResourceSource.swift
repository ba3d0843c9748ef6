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
    /// The pass does not render (its template, record or images); `underlying` is the renderer's own typed error.
    case render(serial: String, underlying: any Error)
    /// It renders, and Google Wallet cannot take it as it is.
    case mapping(serial: String, GoogleError)
    /// No published template has this name.
    case noTemplate(name: String)
    /// A published template whose default record does not render.
    case templateRender(name: String, underlying: any Error)
    /// A published template that Google Wallet cannot take as it is.
    case templateMapping(name: String, GoogleError)
    /// Not buildable yet, likely soon: a template published a moment before its first pass, with no image base
    /// configured (its images' URLs come from that pass's web service URL). Tried again with back-off.
    case noImageBaseYet(name: String)
    /// The store could not be read.
    case store(StoreError)

    package var description: String {
        switch self {
        case .render(let serial, let error): return "pass \(serial) does not render: \(error)"
        case .mapping(let serial, let error): return "pass \(serial) cannot go to Google Wallet: \(error.description)"
        case .noTemplate(let name): return "no published template is named \(name)"
        case .templateRender(let name, let error):
            return "template \(name) has no Google class: it does not render: \(error)"
        case .templateMapping(let name, let error):
            return "template \(name) has no Google class: \(error.description)"
        case .noImageBaseYet(let name):
            return "template \(name) has no Google class yet: no image base is configured (--link-base or "
                + "--google-image-base) and no pass of it with a web service URL is stored yet"
        case .store(let error): return "reading the store: \(error.description)"
        }
    }
}

extension GoogleSourceError {
    /// Worth trying again later: the store was away, or a template's first pass is about to be stored.
    package var isTemporary: Bool {
        switch self {
        case .noImageBaseYet, .store: return true
        default: return false
        }
    }
}
