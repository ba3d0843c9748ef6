import PassModel
import Synchronization

/// Save links for the passes of one template: maps each pass, and makes the shortest link that works. The class
/// travels in the link while both fit; otherwise it is inserted through the API once (by `inserter`) and links
/// carry the object only; an object too long even alone is inserted too and linked by reference. Without an
/// inserter (offline) such a pass is refused with `GoogleError.linkNeedsInsert`. Safe from many threads.
public final class GoogleSaveLinks: Sendable {
    public let mapping: GoogleMapping
    public let identity: GoogleIdentity
    /// Web origins allowed to show Google's save button.
    public let origins: [String]
    private let inserter: (any GoogleResourceInserter)?
    /// Classes known to be at Google (inserted here, or `classesAtGoogle` given).
    private let classesAtGoogle: Bool
    private let inserted = Mutex<Set<String>>([])

    /// - Parameters:
    ///   - inserter: inserts classes and objects through the API; nil offline.
    ///   - classesAtGoogle: every class is already at Google (the template was published): links carry objects.
    public init(
        mapping: GoogleMapping, identity: GoogleIdentity, origins: [String] = [],
        inserter: (any GoogleResourceInserter)? = nil, classesAtGoogle: Bool = false
    ) {
        self.mapping = mapping
        self.identity = identity
        self.origins = origins
        self.inserter = inserter
        self.classesAtGoogle = classesAtGoogle
    }

    /// The pass's class and object and its save link.
    /// - Throws: the mapping's errors, `.linkNeedsInsert` offline, the inserter's errors, `.signing`.
    public func link(for input: GoogleMappingInput, issuedAt: Int64) throws(GoogleError) -> (
        pass: GooglePass, link: GoogleSaveLink
    ) {
        let pass = try mapping.map(input)
        let account = identity.account
        let classThere = classesAtGoogle || inserted.withLock { $0.contains(pass.classID) }
        if !classThere {
            do {
                let link = try GoogleSaveLink.make(
                    pass, content: .classAndObject, account: account, origins: origins, issuedAt: issuedAt)
                return (pass, link)
            } catch .linkNeedsInsert(let length, let limit, let resource) {
                guard let inserter else { throw .linkNeedsInsert(length: length, limit: limit, resource: resource) }
                try inserter.insertClass(pass)
                _ = inserted.withLock { $0.insert(pass.classID) }
            }
        }
        do {
            let link = try GoogleSaveLink.make(
                pass, content: .object, account: account, origins: origins, issuedAt: issuedAt)
            return (pass, link)
        } catch .linkNeedsInsert(let length, let limit, let resource) {
            guard let inserter else { throw .linkNeedsInsert(length: length, limit: limit, resource: resource) }
            try inserter.insertObject(pass)
            let link = try GoogleSaveLink.make(
                pass, content: .objectReference, account: account, origins: origins, issuedAt: issuedAt)
            return (pass, link)
        }
    }
}
