/// iOS 27 poster generic passes (ios27.md). Every rule here is a warning: iOS 27 Wallet installs these passes,
/// and where Apple's article, talk and builder disagree or say nothing the message says so instead of guessing.
/// A first primary field without a label is drawn as a large title [T]; that is a design choice, so no rule.
extension Checker {
    /// A poster generic pass needs a legacy style beside it for older systems, and Apple names four of them.
    mutating func checkPosterFallback(_ present: [PassStyle]) {
        guard present.contains(.posterGeneric) else { return }
        let names = PassStyle.posterFallbacks.map(\.rawValue).joined(separator: ", ")
        guard let fallback = PassStyle.fallback(among: present) else {
            // iOS 27 shows the pass; iOS 26 and earlier find no style they know and cannot add it [A][T].
            warning(
                PassProblemCode.posterNoFallback, "posterGeneric",
                "posterGeneric needs iOS 27; without a legacy style dictionary beside it, iPhones on iOS 26 and earlier cannot add the pass — add one of \(names) with the same fields (they may share keys with posterGeneric)"
            )
            return
        }
        if !PassStyle.posterFallbacks.contains(fallback) {
            // Apple lists generic, storeCard, coupon and eventTicket; a boarding pass needs a transit type and
            // draws a membership card as travel on older systems, so it is allowed but almost surely a mistake.
            warning(
                PassProblemCode.posterFallbackStyle, fallback.rawValue,
                "\(fallback.rawValue) is not a fallback Apple names for posterGeneric (one of \(names)); iOS 26 and earlier would show this membership or loyalty pass as a \(fallback.rawValue) — use generic or storeCard instead"
            )
        }
    }

    /// Groups a style never draws: posterGeneric has no secondary or auxiliary row [A]; footerFields exist only
    /// in posterGeneric. The pass installs either way, so these are warnings.
    mutating func checkGroupsShown(_ dict: [String: JSONValue], _ style: PassStyle) {
        func count(_ g: PassFieldGroup) -> Int { dict[g.rawValue]?.arrayValue?.count ?? 0 }
        if style == .posterGeneric {
            for group in [PassFieldGroup.secondaryFields, .auxiliaryFields] where count(group) > 0 {
                let these = count(group) == 1 ? "this field" : "these \(count(group)) fields"
                warning(
                    PassProblemCode.groupNotShown, JSONPath.member(style.rawValue, group.rawValue),
                    "posterGeneric has no \(group.rawValue) row, so Wallet does not show \(these) — move them to headerFields, primaryFields (up to four), footerFields or backFields (the fallback style keeps its own \(group.rawValue))"
                )
            }
        } else if count(.footerFields) > 0 {
            warning(
                PassProblemCode.groupNotShown, JSONPath.member(style.rawValue, PassFieldGroup.footerFields.rawValue),
                "footerFields is drawn only by posterGeneric; \(style.rawValue) does not show it — move these fields to another group, or into a posterGeneric dictionary"
            )
        }
    }

    /// Keys whose meaning on a poster generic pass, or at all, Apple has not confirmed.
    mutating func checkUnconfirmedKeys(_ root: [String: JSONValue]) {
        if root["logoSymbolName"] != nil {
            // In Apple's pass builder [B], absent from Apple's pass.json reference [U].
            warning(
                PassProblemCode.unconfirmedKey, "logoSymbolName",
                "logoSymbolName (an SF Symbol as the logo) is in Apple's pass builder but not in Apple's pass.json reference, so Wallet may ignore it — keep logo.png in the pass as well"
            )
        }
        guard root[PassStyle.posterGeneric.rawValue] != nil else { return }
        let posterTicketFallback =
            root["eventTicket"] != nil
            && (root["preferredStyleSchemes"]?.arrayValue?.contains("posterEventTicket") ?? false)
        for key in ["useAutomaticColors", "suppressHeaderDarkening", "footerBackgroundColor"] where root[key] != nil {
            // Poster event ticket keys; Apple's poster generic article names only the three usual colours [U].
            let still = posterTicketFallback ? " (it still applies to the poster event ticket fallback)" : ""
            warning(
                PassProblemCode.unconfirmedKey, key,
                "\(key) is a poster event ticket key; whether it applies to posterGeneric is unconfirmed\(still) — set foregroundColor, labelColor and backgroundColor, which Apple documents for poster generic passes"
            )
        }
    }
}
