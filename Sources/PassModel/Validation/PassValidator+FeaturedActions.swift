/// iOS 27 `featuredActions` (ios27.md). Only a value that cannot be an array of action objects is an error;
/// everything else is a warning, because Apple documents the keys in a talk and its builder [T][B] but no case
/// where Wallet refuses a pass over an action.
extension Checker {
    static let actionShape = "an action dictionary {\"identifier\": …, \"type\": …, \"url\": …}"

    mutating func checkFeaturedActions(_ root: [String: JSONValue]) {
        guard let items = array(root, "featuredActions", in: "", of: "action dictionaries") else { return }
        if items.count > 2 {
            warning(
                PassProblemCode.tooManyActions, "featuredActions",
                "featuredActions lists \(items.count) actions; Apple allows at most two, drawn in priority order — keep the two that matter most and put other links in backFields"
            )
        }
        var seen: [String: String] = [:]
        for (i, item) in items.enumerated() {
            let path = JSONPath.index("featuredActions", i)
            guard let action = object(item, at: path, what: Self.actionShape) else { continue }
            checkActionIdentifier(action, at: path, seen: &seen)
            var type: FeaturedActionType?
            if action["type"] == nil {
                warning(
                    PassProblemCode.missingKey, JSONPath.member(path, "type"),
                    "featured action at \(path) has no \"type\", so Wallet has no icon or title to draw; add one of \(FeaturedActionType.knownList)"
                )
            } else {
                // Apple's list is new and may grow: an unknown type is worth fixing, not proof of refusal.
                type = enumValue(action, "type", in: path, as: FeaturedActionType.self, severity: .warning)
            }
            checkActionTarget(action, type: type, at: path)
            unknownKeys(action, known: PassFeaturedAction.knownKeys, in: path)
        }
        checkActionsShown(root, count: items.count)
    }

    mutating func checkActionIdentifier(_ action: [String: JSONValue], at path: String, seen: inout [String: String]) {
        let keyPath = JSONPath.member(path, "identifier")
        guard action["identifier"] != nil else {
            warning(
                PassProblemCode.missingKey, keyPath,
                "featured action at \(path) has no \"identifier\"; add one unique in the pass, e.g. \"call-support\"")
            return
        }
        guard let id = string(action, "identifier", in: path) else { return }
        if id.isBlank {
            invalid(
                keyPath, "featured action identifier is empty; write one unique in the pass, e.g. \"shop\"",
                severity: .warning)
        } else if let first = seen[id] {
            warning(
                PassProblemCode.duplicateActionIdentifier, keyPath,
                "featured action identifier \"\(id)\" is already used at \(first); Apple's builder and talk require identifiers unique in the pass — rename one of them"
            )
        } else {
            seen[id] = path
        }
    }

    /// The `url` (Apple's key) or the unconfirmed `placeIdentifier`, and the scheme a `call` is expected to use.
    mutating func checkActionTarget(_ action: [String: JSONValue], type: FeaturedActionType?, at path: String) {
        let url = string(action, "url", in: path)
        if action["placeIdentifier"] != nil, string(action, "placeIdentifier", in: path) != nil {
            // One passkit-generator version writes it for `place`; Apple's talk and builder use `url` [G][U].
            let rest =
                action["url"] == nil
                ? "add a \"url\" (e.g. a Maps link) as well" : "the url is what Wallet is known to read"
            warning(
                PassProblemCode.unconfirmedKey, JSONPath.member(path, "placeIdentifier"),
                "placeIdentifier appears in one passkit-generator version only and Apple does not document it, so Wallet may ignore it — \(rest)"
            )
        }
        let urlPath = JSONPath.member(path, "url")
        guard action["url"] != nil else {
            if action["placeIdentifier"] == nil {
                warning(
                    PassProblemCode.missingKey, urlPath,
                    "featured action at \(path) has no \"url\", so it leads nowhere; add the absolute URL it opens, e.g. \"https://example.com/shop\""
                )
            }
            return
        }
        guard let url else { return }
        if !Self.hasScheme(url) {
            invalid(
                urlPath,
                "featured action url \"\(url)\" is not an absolute URL; write it with its scheme, e.g. \"https://example.com/…\"",
                severity: .warning)
        } else if type == .call, !url.lowercased().hasPrefix("tel:") {
            // What each type expects beyond a URL is unconfirmed [U]; a phone link is the natural reading.
            invalid(
                urlPath,
                "a call action's url is \"\(url)\"; Apple has not confirmed what a call expects, and a phone link is written \"tel:+15555550123\" — check Apple's documentation before relying on another scheme",
                severity: .warning)
        }
    }

    /// Apple's talk says actions work for every style [T]; passkit-generator's maintainer found them missing on
    /// poster event tickets and semantic boarding passes [G][U]. A posterGeneric pass is shown as such on iOS 27.
    mutating func checkActionsShown(_ root: [String: JSONValue], count: Int) {
        guard count > 0, root[PassStyle.posterGeneric.rawValue] == nil else { return }
        let schemes = root["preferredStyleSchemes"]?.arrayValue ?? []
        var layout: String?
        if root["eventTicket"] != nil, schemes.contains("posterEventTicket") { layout = "poster event tickets" }
        if root["boardingPass"] != nil, schemes.contains("semanticBoardingPass") { layout = "semantic boarding passes" }
        guard let layout else { return }
        warning(
            PassProblemCode.actionsNotShown, "featuredActions",
            "featured actions are reported not to show on \(layout) (a passkit-generator finding; Apple's talk says they work for every style) — keep the same links in backFields or the pass's URL keys too"
        )
    }
}
