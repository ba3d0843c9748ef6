import Foundation

/// Changes decided inside the write transaction: the store's one writer (and SQLite's write lock, for other
/// processes) keeps the row from changing between the read and the write.
extension SQLiteStore {
    package func modifyPass(serial: String, _ change: (StoredPass) throws -> PassModification) throws
        -> PassModificationOutcome
    {
        let nowDate = now()
        return try pool.write { db in
            guard let previous = try Self.selectPass(db, serial: serial) else {
                throw StoreError.passNotFound(serial: serial)
            }
            let modification = try change(previous)
            var pass = previous
            pass.record = modification.record
            if let images = modification.images { pass.images = images }
            if let voided = modification.voided { pass.voided = voided }
            guard pass != previous else {
                return PassModificationOutcome(
                    previous: previous, pass: previous, changed: false, pushesQueued: 0, pushesAlreadyPending: 0)
            }
            let queued = try Self.writeVersion(db, &pass, replacingImages: modification.images != nil, now: nowDate)
            let devices = try Self.registeredDevices(db, serial: serial, passType: pass.passTypeIdentifier)
            return PassModificationOutcome(
                previous: previous, pass: pass, changed: true, pushesQueued: queued,
                pushesAlreadyPending: max(0, devices - queued))
        }
    }

    package func reissuePasses(_ passes: [StoredPass]) throws -> [String: Int] {
        guard !passes.isEmpty else { return [:] }
        let nowDate = now()
        let (queued, fresh) = try pool.write { db in
            var queued: [String: Int] = [:]
            var fresh: [StoredPass] = []
            for issued in passes {
                let updated = try db.withStatement(
                    """
                    UPDATE passes SET template = ?2, web_service_url = ?3, compatible_pass = ?4 WHERE serial = ?1
                    RETURNING pass_type
                    """
                ) { s -> Bool in
                    try s.bind(1, issued.serialNumber)
                    try s.bind(2, issued.templatePath)
                    try s.bind(3, issued.webServiceURL)
                    try s.bind(4, issued.compatiblePass ? 1 : 0)
                    guard try s.step() else { return false }
                    while try s.step() {}
                    return true
                }
                guard updated, var pass = try Self.selectPass(db, serial: issued.serialNumber) else {
                    fresh.append(issued)
                    continue
                }
                pass.record = issued.record
                pass.images = issued.images
                pass.voided = issued.voided
                if let objectID = issued.googleObjectID {
                    try Self.linkGoogleObject(
                        db, GoogleObjectLink(serialNumber: issued.serialNumber, objectID: objectID),
                        template: issued.templatePath, record: try Self.encode(pass.record),
                        nowSeconds: Self.seconds(nowDate))
                }
                queued[issued.serialNumber] = try Self.writeVersion(db, &pass, replacingImages: true, now: nowDate)
            }
            return (queued, fresh)
        }
        try insertPasses(fresh)
        return queued.merging(fresh.map { ($0.serialNumber, 0) }) { old, _ in old }
    }

    /// How many devices are registered for the pass.
    static func registeredDevices(_ db: SQLiteConnection, serial: String, passType: String) throws -> Int {
        try db.withStatement("SELECT count(*) FROM registrations WHERE serial = ?1 AND pass_type = ?2") { s in
            try s.bind(1, serial)
            try s.bind(2, passType)
            return try s.step() ? s.int(0) : 0
        }
    }
}
