import PassModel

extension Template {
    /// Renders one pass from a record checked by `resolve(_:)`.
    ///
    /// 1. Tier: when `tierField`'s value has an entry in `tiers`, its `pass` keys replace top-level pass.json keys
    ///    (`null` removes one) and its images replace files of the same path. A value without an entry uses the
    ///    base pass.
    /// 2. Compatible fallback: when tooling.json's `automaticallyGenerateCompatiblePass` or
    ///    `context.compatiblePass` is set, a `generic` dictionary is derived from `posterGeneric` if the pass has
    ///    no legacy style dictionary (see `CompatibleFallback`).
    /// 3. Placeholders are substituted in string values of the parsed tree (never in member names), in tier
    ///    overrides and in pass.strings values; see `Substituter`.
    /// 4. Personalization by key (Pass Designer templates): each `keyFields` value replaces the `value` of every
    ///    pass field with that key (see `KeyFields`). After substitution, so a value is never scanned for
    ///    placeholders.
    /// 5. Reserved record keys: `barcode.message`, `barcode.altText`, `relevantDate.start`/`.end` (see
    ///    `ReservedKeys`).
    /// 6. serialNumber, passTypeIdentifier, teamIdentifier, webServiceURL and authenticationToken are applied
    ///    from `context` (see `RenderContext`); a personalized pass leaves the sign-up files out.
    /// - Throws: `TemplateError.missingSerialNumber` when no serial number can be found.
    public func render(_ record: ResolvedRecord, context: RenderContext) throws(TemplateError) -> RenderedPass {
        var warnings = record.warnings
        let tierName = tierField.flatMap { record.values[$0] }
        let tier = tierName.flatMap { tiers[$0] }
        var root = variantRoot(tier: tier, compatiblePass: context.compatiblePass)
        let kinds = fieldKinds
        let serial = try serialNumber(record, context: context, own: root["serialNumber"])
        let substituter = Substituter(values: record.values, kinds: kinds, serialNumber: serial)
        root = root.mapValues(substituter.apply)
        KeyFields.apply(record.values, names: keyFields, kinds: kinds, to: &root)
        ReservedKeys.apply(record.values, to: &root, file: passJSONFile, warnings: &warnings)
        root["serialNumber"] = .string(serial)

        warnings += certificateIdentifiers(context, into: &root)
        if let url = context.webServiceURL { root["webServiceURL"] = .string(url) }
        if let token = context.authenticationToken { root["authenticationToken"] = .string(token) }
        if context.voided { root["voided"] = .bool(true) }

        let (sorted, variant) = files(tier: tier, tierName: tierName, substituter: substituter, context: context)
        return RenderedPass(passJSON: .object(root), files: sorted, warnings: warnings, variant: variant)
    }

    /// pass.json's top level for a tier (nil: the base pass), with the compatible fallback when asked or set by
    /// tooling.json: everything of the tree that does not depend on the record.
    func variantRoot(tier: TemplateTier?, compatiblePass: Bool) -> [String: JSONValue] {
        var root = passJSON.objectValue ?? [:]
        if let tier {
            for (key, value) in tier.pass {
                if value == .null { root.removeValue(forKey: key) } else { root[key] = value }
            }
        }
        if generatesCompatiblePass || compatiblePass { CompatibleFallback.apply(to: &root) }
        return root
    }

    /// The pass's serial number: the context's, else the template's own with the record's values.
    /// - Throws: `TemplateError.missingSerialNumber` when there is none, or the template's uses itself.
    /// - Parameter own: the template's serialNumber (its tier's, when a tier sets one).
    func serialNumber(
        _ record: ResolvedRecord, context: RenderContext, own: JSONValue?
    ) throws(TemplateError) -> String {
        try serialNumber(record, context: context, usable: Self.usableSerial(own))
    }

    /// `serialNumber(_:context:own:)` with the template's serial already checked by `usableSerial(_:)`.
    func serialNumber(
        _ record: ResolvedRecord, context: RenderContext, usable own: String?
    ) throws(TemplateError) -> String {
        if let given = context.serialNumber { return given }
        guard let own else { throw .missingSerialNumber(file: passJSONFile) }
        return Substituter(values: record.values, kinds: fieldKinds, serialNumber: nil).text(own)
    }

    /// The template's serialNumber when a record can make a serial from it: a string that does not use the
    /// serial's own placeholder.
    static func usableSerial(_ own: JSONValue?) -> String? {
        guard case .string(let own)? = own,
            (try? PlaceholderScan.uses(in: own, path: "", file: ""))?
                .contains(where: { $0.name == Template.serialNumberPlaceholder }) == false
        else { return nil }
        return own
    }

    /// Sets passTypeIdentifier and teamIdentifier to the certificate's, returning a warning for each one the
    /// template set differently.
    func certificateIdentifiers(_ context: RenderContext, into root: inout [String: JSONValue]) -> [String] {
        var warnings: [String] = []
        for (key, fromCertificate) in [
            ("passTypeIdentifier", context.passTypeIdentifier), ("teamIdentifier", context.teamIdentifier),
        ] {
            guard let fromCertificate else { continue }
            if let own = root[key], own != .string(fromCertificate) {
                let shown = own.stringValue.map { "\"\($0)\"" } ?? "a \(own.kindName)"
                warnings.append(
                    "\(passJSONFile): \(key) is \(shown) but the signing certificate's is "
                        + "\"\(fromCertificate)\"; using the certificate's (Wallet rejects a pass whose \(key) differs "
                        + "from its certificate)")
            }
            root[key] = .string(fromCertificate)
        }
        return warnings
    }

    /// The pass's files other than pass.json, sorted by path, and the variant they make (see
    /// `RenderedPass.variant`).
    func files(
        tier: TemplateTier?, tierName: String?, substituter: Substituter, context: RenderContext
    ) -> (files: [PassFile], variant: String?) {
        var files: [String: PassFile] = [:]
        for asset in assets {
            switch asset {
            case .file(let file):
                files[file.path] = file
            case .strings(let strings):
                if let shared = strings.sharedBytes {
                    files[strings.path] = PassFile(path: strings.path, bytes: shared, isSharedAsset: true)
                } else {
                    let entries = strings.entries.map { (key: $0.key, value: substituter.text($0.value)) }
                    files[strings.path] = PassFile(
                        path: strings.path, bytes: PassStrings.serialize(entries), isSharedAsset: false)
                }
            }
        }
        if let tier {
            for (dest, source) in tier.images {
                guard let bytes = tierImages[source] else { continue }
                files[dest] = PassFile(path: dest, bytes: bytes, isSharedAsset: false)
            }
        }
        for image in context.images { files[image.path] = image }
        var variant = tier?.images.isEmpty == false ? tierName : nil
        if context.personalized, isPersonalizable {
            files = files.filter { !Self.isPersonalizationFile($0.key) }
            // Its shared files differ from the personalizable pass's, so it is a variant of its own.
            variant = (variant ?? "") + "\u{1E}personalized"
        }
        let sorted = files.values.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        return (sorted, variant)
    }
}
