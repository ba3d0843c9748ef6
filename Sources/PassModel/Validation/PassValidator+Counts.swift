extension Checker {
    /// The top-level keys besides the style keys that `checkFieldCounts` reads for a pass with these styles: a
    /// generic pass's counts depend on its barcode's format.
    static func fieldCountReads(_ present: [PassStyle]) -> Set<String> {
        present.contains(.generic) ? ["barcodes", "barcode"] : []
    }

    /// Display limits of §2. Extra fields are not an error (the pass installs) but Wallet silently hides them.
    mutating func checkFieldCounts(_ dict: [String: JSONValue], _ style: PassStyle, root: [String: JSONValue]) {
        func count(_ g: PassFieldGroup) -> Int { dict[g.rawValue]?.arrayValue?.count ?? 0 }
        func report(_ g: PassFieldGroup, _ n: Int, _ limit: Int, _ what: String) {
            guard n > limit else { return }
            warning(
                PassProblemCode.tooManyFields, JSONPath.member(style.rawValue, g.rawValue),
                "\(style.rawValue) shows at most \(limit) \(what); \(n) are set, so Wallet hides the rest — move the extra fields to backFields"
            )
        }
        report(.headerFields, count(.headerFields), 3, "header fields")
        switch style {
        case .boardingPass:
            report(.primaryFields, count(.primaryFields), 2, "primary fields (origin and destination)")
            report(.secondaryFields, count(.secondaryFields), 5, "secondary fields")
            report(.auxiliaryFields, count(.auxiliaryFields), 5, "auxiliary fields")
        case .coupon, .storeCard:
            report(.primaryFields, count(.primaryFields), 1, "primary field")
            let combined = count(.secondaryFields) + count(.auxiliaryFields)
            report(
                count(.auxiliaryFields) > 0 ? .auxiliaryFields : .secondaryFields, combined, 4,
                "secondary and auxiliary fields combined")
        case .generic:
            report(.primaryFields, count(.primaryFields), 1, "primary field")
            report(.secondaryFields, count(.secondaryFields), 4, "secondary fields")
            report(.auxiliaryFields, count(.auxiliaryFields), 4, "auxiliary fields")
            // HIG: with a square barcode, secondary and auxiliary fields share one row.
            let shown = (root["barcodes"]?.arrayValue?.first ?? root["barcode"])?["format"]?.stringValue
            if let shown, shown == BarcodeFormat.qr.rawValue || shown == BarcodeFormat.aztec.rawValue,
                count(.secondaryFields) <= 4, count(.auxiliaryFields) <= 4
            {
                report(
                    .auxiliaryFields, count(.secondaryFields) + count(.auxiliaryFields), 4,
                    "secondary and auxiliary fields combined when the barcode is square (\(shown))")
            }
        case .posterGeneric:
            report(.primaryFields, count(.primaryFields), 4, "primary fields")
            // Apple's article allows two footer fields, the WWDC26 talk says only the first is shown: warn from
            // the second on and name both readings.
            if count(.footerFields) > 1 {
                warning(
                    PassProblemCode.tooManyFields,
                    JSONPath.member(style.rawValue, PassFieldGroup.footerFields.rawValue),
                    "posterGeneric has \(count(.footerFields)) footer fields; Apple's poster generic article allows two, but the WWDC26 talk says only the first is shown — put the one that matters most first, or move the others to backFields"
                )
            }
        case .eventTicket:
            report(.primaryFields, count(.primaryFields), 1, "primary field")
            report(.secondaryFields, count(.secondaryFields), 4, "secondary fields")
            let aux = dict[PassFieldGroup.auxiliaryFields.rawValue]?.arrayValue ?? []
            let second = aux.filter { $0["row"] == .integer(1) }.count
            report(.auxiliaryFields, aux.count - second, 4, "auxiliary fields in the first row")
            report(.auxiliaryFields, second, 4, "auxiliary fields in the second row (row 1)")
        }
    }
}
