import PassMint

/// `passmint update`: validate a change against the template and store it with its pushes, in one transaction.
public enum PassUpdater {
    /// The outcome of one update.
    public struct Outcome: Sendable {
        public let serialNumber: String
        public let tag: Int64
        public let pushesQueued: Int
        /// Fields whose value changed, old → new.
        public let changed: [(field: String, from: String?, to: String)]
    }

    /// Applies `changes` to the stored pass `serial`.
    /// - Throws: `.invalidInput` for an unknown serial or a value the template rejects.
    public static func update(
        serial: String, changes: [String: String], store: any PassStore, renderer: TemplateRenderer
    ) throws(PassMintError) -> Outcome {
        let stored: StoredPass
        do {
            guard let found = try store.pass(serial: serial) else {
                throw PassMintError.invalidInput("no stored pass has serial number \(serial); check the serial and --db")
            }
            stored = found
        } catch let error as PassMintError {
            throw error
        } catch {
            throw .environment("reading pass \(serial): \(error)")
        }
        let record: [String: String]
        do {
            record = try renderer.validate(stored, changes: changes)
            // Render once so a change that makes an invalid pass is refused before it reaches any phone.
            var candidate = stored
            candidate.record = record
            _ = try renderer.render(candidate)
        } catch let error as PassMintError {
            throw .invalidInput("update \(serial): \(error.description)")
        } catch {
            throw .invalidInput("update \(serial): \(error)")
        }
        do {
            let (pass, queued) = try store.updateRecord(serial: serial, record: record)
            let changed = changes.keys.sorted().compactMap { key -> (String, String?, String)? in
                let new = record[key] ?? ""
                return stored.record[key] == new ? nil : (key, stored.record[key], new)
            }
            return Outcome(serialNumber: serial, tag: pass.tag, pushesQueued: queued, changed: changed)
        } catch {
            throw .environment("storing the update of \(serial): \(error)")
        }
    }
}
