import PassMint
import PassStore

/// `passmint update`: validate a change against the template and store it with its pushes, in one transaction.
package enum PassUpdater {
    /// The outcome of one update.
    package struct Outcome: Sendable {
        package let serialNumber: String
        package let tag: Int64
        package let pushesQueued: Int
        /// Fields whose value changed, old → new.
        package let changed: [(field: String, from: String?, to: String)]
    }

    /// Applies `changes` to the stored pass `serial`. Changes that name image files (`image.SLOT`, image fields)
    /// are scaled and replace the stored images of their slots.
    /// - Parameters:
    ///   - voided: the pass's new voided state (true cancels the card: Wallet greys it out), nil to keep it.
    ///   - imageFolder: where relative image paths start and must stay inside (nil: current directory).
    /// - Throws: `.invalidInput` for an unknown serial, a value the template rejects or an unusable image.
    package static func update(
        serial: String, changes: [String: String], voided: Bool? = nil, store: any PassStore,
        renderer: TemplateRenderer, imageFolder: String? = nil
    ) throws(PassMintError) -> Outcome {
        let stored: StoredPass
        do {
            guard let found = try store.pass(serial: serial) else {
                throw PassMintError.invalidInput(
                    "no stored pass has serial number \(serial); check the serial and the store", about: .store)
            }
            stored = found
        } catch let error as PassMintError {
            throw error
        } catch {
            throw .environment("reading pass \(serial): \(error)")
        }
        let record: [String: String]
        var images: [String: [UInt8]]?
        var photos: [String: String] = [:]
        do {
            record = try renderer.validate(stored, changes: changes, allowImages: true)
            photos = try renderer.imageChanges(stored, changes: changes)
            // Render once so a change that makes an invalid pass is refused before it reaches any phone; a new
            // photo is scaled here and its files stored, so later renders need no original.
            var candidate = stored
            candidate.record = record
            if let voided { candidate.voided = voided }
            let issued = try renderer.issue(candidate, photos: photos, imageFolder: imageFolder)
            if !photos.isEmpty { images = issued.images }
        } catch let error as PassMintError {
            throw .invalidInput("update \(serial): \(error.description)")
        } catch {
            throw .invalidInput("update \(serial): \(error)")
        }
        do {
            let (pass, queued) = try store.updateRecord(serial: serial, record: record, images: images, voided: voided)
            var changed = changes.keys.sorted().compactMap { key -> (String, String?, String)? in
                // A new photo is always a change; the stored pass keeps its scaled files, not the old path.
                if let path = photos[key] { return (key, stored.images.isEmpty ? nil : "the stored image", path) }
                let new = record[key] ?? ""
                return stored.record[key] == new ? nil : (key, stored.record[key], new)
            }
            if let voided, voided != stored.voided { changed.append(("voided", String(stored.voided), String(voided))) }
            return Outcome(serialNumber: serial, tag: pass.tag, pushesQueued: queued, changed: changed)
        } catch {
            throw .environment("storing the update of \(serial): \(error)")
        }
    }
}
