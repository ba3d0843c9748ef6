import Foundation

/// Changes decided inside a transaction that holds the pass's row lock (`SELECT … FOR UPDATE`): another
/// instance's or process's change of the same pass waits for the commit and then reads the new version.
extension PostgresStore {
    package func modifyPass(serial: String, _ change: (StoredPass) throws -> PassModification) throws
        -> PassModificationOutcome
    {
        let nowDate = now()
        let outcome = try pool.transaction { db -> PassModificationOutcome in
            let locked = try db.query(
                "SELECT \(Self.storedPassColumns) FROM passes WHERE serial = $1 FOR UPDATE", [serial])
            guard locked.rowCount > 0 else { throw StoreError.passNotFound(serial: serial) }
            var previous = try Self.storedPass(locked, row: 0)
            previous.images = try Self.selectImages(db, serial: serial)
            let modification = try change(previous)
            var wanted = previous
            wanted.record = modification.record
            if let images = modification.images { wanted.images = images }
            if let voided = modification.voided { wanted.voided = voided }
            guard wanted != previous else {
                return PassModificationOutcome(
                    previous: previous, pass: previous, changed: false, pushesQueued: 0, pushesAlreadyPending: 0)
            }
            guard
                var (pass, queued) = try Self.writeVersion(
                    db, serial: serial, record: wanted.record, voided: modification.voided, now: nowDate)
            else { throw StoreError.passNotFound(serial: serial) }
            if let images = modification.images { try Self.replaceImages(db, serial: serial, images: images) }
            pass.images = wanted.images
            let devices = try db.query(
                "SELECT count(*) FROM registrations WHERE serial = $1 AND pass_type = $2",
                [serial, pass.passTypeIdentifier]
            ).int(0, 0)
            return PassModificationOutcome(
                previous: previous, pass: pass, changed: true, pushesQueued: queued,
                pushesAlreadyPending: max(0, devices - queued))
        }
        if outcome.changed { changes?.passesChanged([serial]) }
        return outcome
    }

    package func reissuePasses(_ passes: [StoredPass]) throws -> [String: Int] {
        guard !passes.isEmpty else { return [:] }
        let nowDate = now()
        defer { changes?.passesChanged(passes.map(\.serialNumber)) }
        let (queued, fresh) = try pool.transaction { db -> ([String: Int], [StoredPass]) in
            var queued: [String: Int] = [:]
            var fresh: [StoredPass] = []
            for issued in passes {
                let updated = try db.query(
                    """
                    UPDATE passes SET template = $2, web_service_url = $3, compatible_pass = $4 WHERE serial = $1
                    RETURNING serial
                    """,
                    [
                        issued.serialNumber, issued.templatePath, issued.webServiceURL,
                        issued.compatiblePass ? "true" : "false",
                    ])
                if updated.rowCount > 0, let objectID = issued.googleObjectID {
                    try Self.linkGoogleObject(
                        db, GoogleObjectLink(serialNumber: issued.serialNumber, objectID: objectID),
                        template: issued.templatePath, record: try RecordCoding.encode(issued.record),
                        nowSeconds: String(RecordCoding.seconds(nowDate)))
                }
                guard updated.rowCount > 0,
                    let (_, pushes) = try Self.writeVersion(
                        db, serial: issued.serialNumber, record: issued.record, voided: issued.voided, now: nowDate)
                else {
                    fresh.append(issued)
                    continue
                }
                try Self.replaceImages(db, serial: issued.serialNumber, images: issued.images)
                queued[issued.serialNumber] = pushes
            }
            return (queued, fresh)
        }
        try insertPasses(fresh)
        return queued.merging(fresh.map { ($0.serialNumber, 0) }) { old, _ in old }
    }
}
