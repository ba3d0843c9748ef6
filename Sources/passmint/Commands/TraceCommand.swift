import Foundation
import PassMint
import PassOperations
import PassStore

/// `passmint trace SERIAL`: what happened to a pass between the service, the phones and APNs, and why an update
/// did not arrive.
struct TraceCommand: Command {
    static let window = Option<Int>.integer(
        "window", "SECONDS", "how soon after an accepted push the phone should ask what changed (default 300)")
    static let json = Flag("json", "print the trace as one JSON object")

    static let spec = CommandSpec(
        name: "trace",
        abstract:
            "what happened to a pass: versions, each phone's requests and pushes, and why an update did not arrive",
        usage: "trace SERIAL [--db FILE | --postgres URL] [--window SECONDS] [--json]",
        discussion: """
            Reads what `serve` recorded of the pass: its versions (tag, Last-Modified, the record keys and pass
            fields each changed, with their changeMessage), and per device its registrations, list requests
            (passesUpdatedSince, whether this serial was in the answer), downloads (If-Modified-Since, 200 or 304,
            tag and Last-Modified served; Wallet's download names no device, so a download is shown under the
            device that listed the pass just before), APNs answers (status, reason, apns-id) and the lines of the
            phone's own log that name the pass. Then one diagnosis per failure found, each with a stable code:
              device.none-registered    no device ever registered (no webServiceURL, not https, unreachable)
              push.not-acted-on         APNs accepted the push, no list request within --window (default 300 s)
              list.serial-missing       the phone listed after the change; this serial was not in the answer
              download.not-modified     the phone got 304: the change did not move Last-Modified past its copy
              update.silent             the phone got the new pass; no changed field has a changeMessage
              apns.bad-device-token     APNs 400 BadDeviceToken
              apns.token-not-for-topic  APNs 400 DeviceTokenNotForTopic
              apns.forbidden            APNs 403: the certificate or auth key is refused
              apns.unregistered         APNs 410: the holder removed the pass (and since when)
              device.log-error          the phone's own log names the pass with an error, and its likely cause
            --json prints what GET /admin/v1/passes/{serial}/trace answers (its ?format=text is this text):
            {"serialNumber", "tag", "lastModified", "versions", "devices": [{"device", "registered", "events"}],
            "otherEvents", "diagnoses": [{"code", "device", "at", "summary", "action"}], "windowSeconds",
            "generatedAt"}.
            Exits 0 when the pass is found (diagnoses or not), 1 when no pass has SERIAL.
            """,
        options: [
            window,
            json,
        ] + StoreArguments.options(dbHelp: StoreArguments.defaultFileHelp),
        positionals: 1...1,
        examples: [
            "passmint trace 3F2A9C… --db passmint.db",
            "passmint trace 3F2A9C… --db passmint.db --json | jq '.diagnoses[].code'",
        ]
    )

    let serial: String
    let store: StoreLocation
    let window: Int
    let json: Bool

    init(_ args: ParsedArguments) throws(CLIError) {
        serial = args.positionals[0]
        store = try StoreArguments.location(args) ?? .sqlite(path: "passmint.db")
        window = try args[Self.window] ?? 300
        json = args[Self.json]
    }

    func run() throws(CLIError) -> Int32 {
        // Reading must not create an empty store where a path was mistyped.
        if case .sqlite(let path) = store, !FileManager.default.fileExists(atPath: path) {
            throw .environment("--db \(path): no such store file")
        }
        let trace: PassTrace?
        let opened: any ServiceStore
        do { opened = try StoreAccess.open(store) } catch { throw error.cli }
        do {
            trace = try PassTracer(store: opened, events: opened, templates: opened)
                .trace(serial: serial, window: TimeInterval(window))
        } catch {
            throw error.cli
        }
        guard let trace else { throw .invalid("no stored pass has serial number \(serial)") }
        if json {
            print(String(decoding: trace.json(), as: UTF8.self))
        } else {
            print(trace.text(), terminator: "")
        }
        return 0
    }
}
