import Foundation
import PassSigning

extension PassTrace {
    /// The trace in plain words: the pass, its versions, each device's timeline, then the diagnoses with what to
    /// do. The same text on the terminal and on the admin route.
    package func text() -> String {
        var out =
            "Pass \(serialNumber) (\(passTypeIdentifier)), tag \(tag), Last-Modified \(DateText.utc(lastModified))"
        out += voided ? ", voided\n" : "\n"
        out += "Web service: \(webServiceURL ?? "none (the pass is never updated)")\n\n"
        out += "Versions, oldest first:\n"
        for version in versions {
            out += "  tag \(version.tag)  \(DateText.utc(version.lastModified))  "
            if version.changedRecord.isEmpty {
                out += version.tag == versions.first?.tag ? "issued (or the oldest kept)\n" : "no record change\n"
            } else {
                out +=
                    version.changedRecord.map { "\($0.key): \(Self.value($0.from)) → \(Self.value($0.to))" }
                    .joined(separator: ", ") + "\n"
            }
            if let fields = version.changedFields, !fields.isEmpty {
                for field in fields {
                    out += "      field \(field.key)"
                    out += field.label.map { " (\($0))" } ?? ""
                    out += ": \(Self.value(field.from)) → \(Self.value(field.to)); "
                    out += field.changeMessage.map { "changeMessage \"\($0)\"" } ?? "no changeMessage (silent)"
                    out += "\n"
                }
            }
        }
        out += "\nDevices:\n"
        if devices.isEmpty { out += "  none\n" }
        for device in devices {
            out += "  \(device.device)\(device.registered ? " (registered)" : " (not registered now)")\n"
            for event in device.events { out += "    " + Self.line(event, inDevice: true) + "\n" }
        }
        if !otherEvents.isEmpty {
            out += "\nEvents no device is named for (Wallet's download names none):\n"
            for event in otherEvents { out += "    " + Self.line(event) + "\n" }
        }
        out += "\nDiagnoses"
        if diagnoses.isEmpty {
            out += ": none. Every device that was pushed asked what changed and got the current version.\n"
        } else {
            out += ":\n"
            for diagnosis in diagnoses {
                out += "  [\(diagnosis.code.rawValue)] \(diagnosis.summary)\n"
                out += "    What to do: \(diagnosis.action)\n"
            }
        }
        return out
    }

    private static func value(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "(none)" }

    /// One event as a line: time, what, facts.
    /// - Parameter inDevice: the line is listed under a device: a download is attributed to it, not named.
    static func line(_ event: Event, inDevice: Bool = false) -> String {
        var out = DateText.utc(event.at) + "  "
        if let device = event.device, !inDevice { out += "[\(device)] " }
        switch event.kind {
        case "registered":
            out +=
                "registered (\(event.created == true ? "201 new" : "200 known"), push token \(event.pushToken ?? "?"))"
        case "unregistered":
            out += "unregistered" + (event.found == false ? " (was not registered)" : "")
        case "listed":
            out += "asked what changed, passesUpdatedSince \(event.since ?? "none") → \(event.status ?? 0)"
            out += event.included == true ? ", this pass listed" : ", this pass not listed"
            out += event.lastUpdated.map { " (lastUpdated \($0))" } ?? ""
        case "downloaded":
            out += "downloaded"
            out += event.ifModifiedSince.map { " with If-Modified-Since \($0)" } ?? ""
            out += " → \(event.status ?? 0), tag \(event.tag ?? "?"), Last-Modified \(event.lastModified ?? "?")"
        case "pushed":
            out += "push for tag \(event.tag ?? "?") → "
            out += event.status.map { $0 == 0 ? "no answer from APNs:" : "APNs \($0)" } ?? "?"
            out += event.reason.map { " \($0)" } ?? ""
            out += event.apnsID.map { ", apns-id \($0)" } ?? ""
            out += event.apnsTimestamp.map { ", inactive since \(DateText.utc($0))" } ?? ""
            out += event.authentication.map { " (\($0))" } ?? ""
        case "logged":
            out += "the phone logged \"\(event.line ?? "")\""
        default:
            out += event.kind
        }
        out += event.count.map { " (×\($0))" } ?? ""
        return out
    }
}
