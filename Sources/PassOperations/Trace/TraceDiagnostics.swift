import Foundation
import PassSigning
import PassStore

/// The diagnoses a pass's facts support, each with a stable code (`TraceCode`), what happened and what to do.
struct TraceDiagnostics {
    let pass: StoredPass
    let history: VersionHistory
    /// Oldest first, with the device each is taken to be of.
    let events: [(event: PassEvent, device: String?)]
    let registeredNow: Set<String>
    let now: Date
    let window: TimeInterval

    func diagnoses() -> [TraceDiagnosis] {
        var found: [TraceDiagnosis] = []
        if let none = noDevice() { found.append(none) }
        let devices = Set(events.compactMap(\.device)).union(registeredNow).sorted()
        for device in devices {
            let mine = events.filter { $0.device == device }.map(\.event)
            found += apnsRefusal(mine, device: device).map { [$0] } ?? []
            found += pushNotActedOn(mine, device: device).map { [$0] } ?? []
            found += listSerialMissing(mine, device: device).map { [$0] } ?? []
        }
        // Pushes whose device's registration was already gone when APNs answered.
        let unowned = events.filter { $0.device == nil && $0.event.kind == .pushed }.map(\.event)
        found += apnsRefusal(unowned, device: nil).map { [$0] } ?? []
        found += downloadNotModified().map { [$0] } ?? []
        found += updateSilent().map { [$0] } ?? []
        found += deviceLogErrors()
        return found.sorted { ($0.at ?? .distantPast, $0.code) < ($1.at ?? .distantPast, $1.code) }
    }

    private func text(_ date: Date) -> String { DateText.utc(date) }

    /// When the current version reached the service's answers: the first push for its tag (pushes are queued in
    /// the change's transaction), else its `Last-Modified` (whole seconds).
    private var changeTime: Date {
        let current = history.current
        let firstPush = events.first { $0.event.kind == .pushed && $0.event.tag == current.tag }?.event.at
        return firstPush ?? Date(timeIntervalSince1970: TimeInterval(current.modifiedAtSeconds))
    }

    // MARK: - no device

    private func noDevice() -> TraceDiagnosis? {
        guard registeredNow.isEmpty, !events.contains(where: { $0.event.kind == .registered }) else { return nil }
        let summary = "No device has ever registered for this pass."
        guard let url = pass.webServiceURL else {
            return TraceDiagnosis(
                code: .noDeviceRegistered, device: nil, at: nil,
                summary: summary + " The pass has no webServiceURL, so Wallet never registers it.",
                action: "Issue the pass again with a web service URL (--web-service-url) and send it to the holder.")
        }
        if !url.lowercased().hasPrefix("https://") {
            return TraceDiagnosis(
                code: .noDeviceRegistered, device: nil, at: nil,
                summary: summary + " Its webServiceURL \(url) is not https: Wallet registers only over valid HTTPS "
                    + "(plain http works on development devices alone).",
                action: "Serve the web service over HTTPS with a certificate the phone trusts (TLS at a proxy or "
                    + "--tls-cert) and issue the pass again with that https URL.")
        }
        return TraceDiagnosis(
            code: .noDeviceRegistered, device: nil, at: nil,
            summary: summary + " Either nobody has added it yet, or Wallet could not reach \(url) over valid HTTPS "
                + "from the phone (registration is the first call Wallet makes when the pass is added).",
            action: "Open \(url)v1/ from a phone's browser: it must load without a certificate warning; check that "
                + "the pass was added (a distribution link's install figures say so) and that automatic updates "
                + "are on for it.")
    }

    // MARK: - APNs

    private func apnsRefusal(_ events: [PassEvent], device: String?) -> TraceDiagnosis? {
        guard let last = events.last(where: { $0.kind == .pushed }),
            case .pushed(let status, let reason, let apnsID, let timestamp, let authentication) = last.detail
        else { return nil }
        let who = device.map { "The push to device \($0)" } ?? "A push"
        let id = apnsID.map { " (apns-id \($0))" } ?? ""
        let at = " at \(text(last.at))"
        switch (status, reason) {
        case (400, "BadDeviceToken"?):
            return TraceDiagnosis(
                code: .apnsBadDeviceToken, device: device, at: last.at,
                summary: "\(who) was refused by APNs with 400 BadDeviceToken\(id)\(at): the token is not a valid "
                    + "token for this environment (a sandbox token sent to production), so its registration was "
                    + "deleted.",
                action: "Nothing to do on the server; Wallet registers again with a valid token when the pass is "
                    + "opened or re-added. If every device gets this, check that pushes go to the production host.")
        case (400, "DeviceTokenNotForTopic"?):
            return TraceDiagnosis(
                code: .apnsTokenNotForTopic, device: device, at: last.at,
                summary: "\(who) was refused by APNs with 400 DeviceTokenNotForTopic\(id)\(at): the device token "
                    + "belongs to another topic than \(pass.passTypeIdentifier) (a token of another pass type, or a "
                    + "sandbox token on production or the reverse); its registration was deleted.",
                action: "Check that the pass's passTypeIdentifier is the certificate's and that the phone registered "
                    + "with this pass; Wallet registers again when the pass is re-added.")
        case (403, _):
            let what = reason ?? "Forbidden"
            let advice: String
            switch what {
            case "ExpiredProviderToken", "InvalidProviderToken", "MissingProviderToken", "TooManyProviderTokenUpdates":
                advice =
                    "Check the APNs auth key: its key ID, its team ID, that the key is not revoked, and the server's "
                    + "clock (a token is valid for an hour)."
            case "BadCertificateEnvironment":
                advice = "The certificate is for another APNs environment; pass updates use production only."
            default:
                advice =
                    "Check the push credential: the Pass Type ID certificate must be the one issued for "
                    + "\(pass.passTypeIdentifier), valid and not revoked (renew it and reload serve with SIGHUP), or "
                    + "the auth key must belong to that pass type's team."
            }
            return TraceDiagnosis(
                code: .apnsForbidden, device: device, at: last.at,
                summary: "\(who) was refused by APNs with 403 \(what)\(id)\(at), authenticated by \(authentication): "
                    + "APNs does not accept this credential for \(pass.passTypeIdentifier).",
                action: advice)
        case (410, _):
            let since = timestamp.map { " (inactive since \(text(Date(timeIntervalSince1970: Double($0) / 1000))))" }
            return TraceDiagnosis(
                code: .apnsUnregistered, device: device, at: last.at,
                summary: "\(who) was answered 410 \(reason ?? "Unregistered")\(id)\(at)\(since ?? ""): the token is "
                    + "no longer active — the holder removed the pass or the app's data from the phone. Its "
                    + "registration was deleted.",
                action: "Nothing to send to this device any more; if the holder still wants the pass, send it again.")
        default:
            return nil
        }
    }

    // MARK: - the phone after the push

    private func pushNotActedOn(_ events: [PassEvent], device: String) -> TraceDiagnosis? {
        guard registeredNow.contains(device),
            let push = events.last(where: {
                if case .pushed(let status, _, _, _, _) = $0.detail { return status == 200 }
                return false
            }),
            !events.contains(where: { $0.kind == .listed && $0.at > push.at }),
            now.timeIntervalSince(push.at) > window
        else { return nil }
        var id = ""
        if case .pushed(_, _, let apnsID?, _, _) = push.detail { id = " (apns-id \(apnsID))" }
        return TraceDiagnosis(
            code: .pushNotActedOn, device: device, at: push.at,
            summary: "APNs accepted the push to device \(device) at \(text(push.at))\(id), and the phone did not ask "
                + "what changed within \(Int(window)) s (no list request since): it did not act on the push.",
            action: "Likely causes: automatic updates are off for this pass (pass details > Automatic Updates), the "
                + "phone is offline or in Low Power Mode, or it cannot reach the web service URL over valid HTTPS "
                + "(a proxy or firewall in front of it). The phone also asks on its own when the pass is opened.")
    }

    private func listSerialMissing(_ events: [PassEvent], device: String) -> TraceDiagnosis? {
        let change = changeTime
        let tag = history.current.tag
        // A device that registered at an older version, so it needs this one.
        guard events.contains(where: { $0.kind == .registered && ($0.tag ?? tag) < tag }) else { return nil }
        let lists = events.filter { $0.kind == .listed && $0.at >= change }
        guard let last = lists.last, case .listed(let since, let status, _, _) = last.detail,
            !lists.contains(where: {
                if case .listed(_, _, let included, _) = $0.detail { return included }
                return false
            })
        else { return nil }
        let sinceText = since.map { "passesUpdatedSince=\($0)" } ?? "no passesUpdatedSince"
        return TraceDiagnosis(
            code: .listSerialMissing, device: device, at: last.at,
            summary: "Device \(device) asked what changed at \(text(last.at)) with \(sinceText), after this pass "
                + "changed (tag \(tag)), and the answer (\(status)) left this serial out"
                + (since.map { $0 >= tag ? ": its tag is at or past the pass's tag \(tag)." : "." } ?? ".")
                + " The phone's tag did not come from this store's current history (a store restored from an "
                + "older copy, or tags from another service).",
            action:
                "The phone picks the pass up with the next change that gets a tag above \(since.map(String.init) ?? "its tag"); "
                + "or the holder removes and adds the pass again (a new registration lists it with no tag).")
    }

    // MARK: - downloads

    private func downloadNotModified() -> TraceDiagnosis? {
        guard
            let refused = events.last(where: {
                if case .downloaded(_, let seconds?, let status, _) = $0.event.detail, status == 304,
                    let tag = $0.event.tag, let served = history.version(tag: tag)
                {
                    return seconds != served.modifiedAtSeconds
                }
                return false
            }),
            case .downloaded(let since?, _, _, let lastModified) = refused.event.detail
        else { return nil }
        let later200 = events.contains {
            if case .downloaded(_, _, 200, _) = $0.event.detail, $0.event.at > refused.event.at { return true }
            return false
        }
        guard !later200 else { return nil }
        let who = refused.device.map { "Device \($0)" } ?? "A phone"
        return TraceDiagnosis(
            code: .downloadNotModified, device: refused.device, at: refused.event.at,
            summary: "\(who) downloaded the pass at \(text(refused.event.at)) with If-Modified-Since \(since) and got "
                + "304 Not Modified: that date is at or after this version's Last-Modified (\(lastModified)), so "
                + "the change did not move Last-Modified past what the phone holds and it keeps the old pass.",
            action: "Last-Modified must move forward with every change: check the server clock (it went back, or "
                + "the phone's copy came from a server with a clock ahead). Change the pass again once the clock is "
                + "right; the phone then gets a Last-Modified past its date.")
    }

    private func updateSilent() -> TraceDiagnosis? {
        guard
            let download = events.last(where: {
                if case .downloaded(_, _?, 200, _) = $0.event.detail { return true }
                return false
            }),
            case .downloaded(_, let seconds?, _, _) = download.event.detail, let served = download.event.tag,
            let held = history.version(modifiedAtOrBefore: seconds), held.tag < served,
            let changes = history.fieldChanges(from: held.tag, to: served),
            !changes.contains(where: { $0.changeMessage != nil })
        else { return nil }
        let who = download.device.map { "Device \($0)" } ?? "A phone"
        let fields =
            changes.isEmpty
            ? "no field's value changed (only colours, images or other keys)"
            : "the changed field" + (changes.count == 1 ? " " : "s ") + changes.map { $0.key }.joined(separator: ", ")
                + (changes.count == 1 ? " has" : " have") + " no changeMessage"
        return TraceDiagnosis(
            code: .updateSilent, device: download.device, at: download.event.at,
            summary: "\(who) got the new version (tag \(served)) at \(text(download.event.at)), replacing tag "
                + "\(held.tag); \(fields), so Wallet updated the pass silently: no notification was shown.",
            action: "Give the field a changeMessage in the template (for example \"changeMessage\": \"Your points: "
                + "%@\") and publish it; later changes of that field then show a notification on the lock screen.")
    }

    // MARK: - the phone's log

    private func deviceLogErrors() -> [TraceDiagnosis] {
        var seen = Set<String>()
        var found: [TraceDiagnosis] = []
        for (event, device) in events.reversed() {
            guard case .logged(let line) = event.detail, seen.insert(line).inserted else { continue }
            let who = device.map { "Device \($0)" } ?? "A phone"
            found.append(
                TraceDiagnosis(
                    code: .deviceLogError, device: device, at: event.at,
                    summary: "\(who) logged at \(text(event.at)): \"\(line)\". \(Self.likelyCause(line))",
                    action: Self.remedy(line)))
            if found.count == 5 { break }
        }
        return found.reversed()
    }

    /// What a line of Wallet's log most likely means.
    static func likelyCause(_ line: String) -> String {
        let lower = line.lowercased()
        if lower.contains("401") || lower.contains("authentication") || lower.contains("unauthorized") {
            return "Likely cause: the service refused the phone's ApplePass token — the phone holds a copy of the "
                + "pass with another authenticationToken (issued again with a new token, or from another store), "
                + "or a proxy strips the Authorization header."
        }
        if lower.contains("certificate") || lower.contains("ssl") || lower.contains("tls") || lower.contains("trust") {
            return "Likely cause: the phone does not trust the web service's HTTPS certificate."
        }
        if lower.contains("signature") || lower.contains("manifest") || lower.contains("invalid data") {
            return "Likely cause: the downloaded pass did not verify on the phone (its signature or manifest)."
        }
        if lower.contains("404") || lower.contains("unregistered serial") {
            return "Likely cause: the phone asked for a pass or registration this service does not have."
        }
        if lower.range(of: #"\b5\d\d\b"#, options: .regularExpression) != nil {
            return "Likely cause: the service answered with a server error."
        }
        if lower.contains("unchanged") || lower.contains("last-modified") || lower.contains("lastupdated") {
            return "Likely cause: the service listed the pass as changed but served the same version."
        }
        return "Wallet reported a problem with this pass."
    }

    static func remedy(_ line: String) -> String {
        let lower = line.lowercased()
        if lower.contains("401") || lower.contains("authentication") || lower.contains("unauthorized") {
            return "Compare the authenticationToken in the holder's pass with the stored one (passmint trace shows "
                + "the registrations; GET /admin/v1/passes/{serial} the record); send the holder the current pass, "
                + "and pass the Authorization header through the proxy."
        }
        if lower.contains("certificate") || lower.contains("ssl") || lower.contains("tls") || lower.contains("trust") {
            return "Serve the web service with a certificate chain a phone trusts (full chain, not expired)."
        }
        if lower.contains("signature") || lower.contains("manifest") || lower.contains("invalid data") {
            return "Run passmint verify on a downloaded copy of the pass and fix what it reports."
        }
        return "Read the serve log around that time for the request it concerns."
    }
}
