import PassMint
import PassTemplates
import PassStore

/// `passmint update` and the admin PATCH: validate a change against the template and store it with its pushes, in
/// one transaction that holds the pass's row, so amounts added at the same moment all count.
package enum PassUpdater {
    /// The outcome of one update.
    package struct Outcome: Sendable {
        package let serialNumber: String
        package let tag: Int64
        /// False when the change left the pass as it was: no new tag, nothing pushed.
        package let changed: Bool
        package let pushesQueued: Int
        /// Registered devices that already had a push waiting (it makes the phone fetch this version too).
        package let pushesAlreadyPending: Int
        /// Fields whose value changed, old → new.
        package let fields: [(field: String, from: String?, to: String)]
        /// The pass as stored now.
        package let pass: StoredPass
    }

    /// Applies `change` to the stored pass `serial`. Values that name image files (`image.SLOT`, image fields)
    /// are scaled and replace the stored images of their slots. Amounts are added to the values stored when the
    /// change is written (inside the store's transaction), not to those read before.
    /// - Parameters:
    ///   - voided: the pass's new voided state (true cancels the card: Wallet greys it out), nil to keep it.
    ///   - imageFolder: where relative image paths start and must stay inside (nil: current directory).
    ///   - allowImages: accept values naming image files (false for HTTP callers).
    /// - Throws: `OperationError.change` for a change the template refuses (its field named), `.update` naming
    ///   the serial for a render that fails or an unusable image, `.passNotFound` for an unknown serial, `.store`
    ///   when the store fails.
    package static func update(
        serial: String, change: RecordChange, voided: Bool? = nil, store: any PassStore, renderer: TemplateRenderer,
        imageFolder: String? = nil, allowImages: Bool = true
    ) throws(OperationError) -> Outcome {
        guard let stored = try read(serial, store: store) else {
            throw .passNotFound(serial: serial, about: .store)
        }
        var images: [String: [UInt8]]?
        var photos: [String: String] = [:]
        try checked(serial) { () throws(OperationError) in
            let record = try renderer.validate(stored, change: change, allowImages: allowImages)
            photos = try renderer.imageChanges(stored, changes: change.values)
            // Render once so a change that makes an invalid pass is refused before it reaches any phone; a new
            // photo is scaled here and its files stored, so later renders need no original.
            var candidate = stored
            candidate.record = record
            if let voided { candidate.voided = voided }
            let issued = try renderer.issue(candidate, photos: photos, imageFolder: imageFolder)
            if !photos.isEmpty { images = issued.images }
        }
        let outcome: PassModificationOutcome
        do {
            outcome = try store.modifyPass(serial: serial) { current in
                // Validated again against the row as it is now: an amount adds to what another change just wrote.
                PassModification(
                    record: try renderer.validate(current, change: change, allowImages: allowImages), images: images,
                    voided: voided)
            }
        } catch let error as OperationError {
            throw error
        } catch StoreError.passNotFound {
            throw .passNotFound(serial: serial, about: .store)
        } catch {
            throw .store(.storingUpdate(serial: serial), underlying: error)
        }
        let before = outcome.previous, after = outcome.pass
        var fields = Set(before.record.keys).union(after.record.keys).sorted().compactMap {
            key -> (String, String?, String)? in
            before.record[key] == after.record[key] ? nil : (key, before.record[key], after.record[key] ?? "")
        }
        // A new photo is a change even when its record key is not stored; the pass keeps its scaled files.
        for (key, path) in photos.sorted(by: { $0.key < $1.key }) where before.images != after.images {
            fields.append((key, before.images.isEmpty ? nil : "the stored image", path))
        }
        if before.voided != after.voided { fields.append(("voided", String(before.voided), String(after.voided))) }
        return Outcome(
            serialNumber: serial, tag: after.tag, changed: outcome.changed, pushesQueued: outcome.pushesQueued,
            pushesAlreadyPending: outcome.pushesAlreadyPending, fields: fields, pass: after)
    }

    /// `update(serial:change:…)` with values to set only.
    package static func update(
        serial: String, changes: [String: String], voided: Bool? = nil, store: any PassStore,
        renderer: TemplateRenderer, imageFolder: String? = nil
    ) throws(OperationError) -> Outcome {
        try update(
            serial: serial, change: RecordChange(values: changes), voided: voided, store: store, renderer: renderer,
            imageFolder: imageFolder)
    }

    private static func read(_ serial: String, store: any PassStore) throws(OperationError) -> StoredPass? {
        do { return try store.pass(serial: serial) } catch {
            throw .store(.readingPass(serial: serial), underlying: error)
        }
    }

    /// Runs a check, keeping a template's refusal of a value as it is (its field and value named) and naming the
    /// pass on the rest.
    private static func checked(_ serial: String, _ body: () throws(OperationError) -> Void) throws(OperationError) {
        do { try body() } catch {
            switch error {
            case .change(.value), .pipeline(.template): throw error
            default: throw .update(serial: serial, error)
            }
        }
    }
}
