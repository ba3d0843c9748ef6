import Foundation
import PassHTTP
import PassPush
import PassStore
/// Wallet's device endpoints: register, unregister, list updated serials (wallet-spec §6, calls 1, 2, 4).
struct RegistrationHandlers: Sendable {
    let context: HandlerContext

    /// `POST /v1/devices/:device/registrations/:passType/:serial` → 201 new, 200 known, 401, 400.
    func register(_ request: Request) throws(HTTPError) -> Response {
        let (device, passType, serial) = Self.identifiers(request)
        let version = try context.authenticatedVersion(request, passType: passType, serial: serial)
        let body = try decodeObjectBody(request, expected: #"{"pushToken": "<hex>"}"#)
        guard let pushToken = body["pushToken"]?.stringValue else {
            throw .badRequest(#"request body must contain "pushToken" (a string)"#)
        }
        guard let token = PushToken(pushToken) else { throw .badRequest("pushToken must be \(PushToken.rule)") }
        let outcome = try context.storeCall {
            try context.store.register(
                device: device, passType: passType, serial: serial, pushToken: token.hex, tag: version.tag)
        }
        // A new registration's row is its event (`PassEvent.registration`); a repeated one is an event.
        if outcome == .alreadyRegistered {
            context.events?.record(
                PassEvent(
                    serial: serial, passType: passType, device: device, at: Date(), tag: version.tag,
                    detail: .registered(created: false, pushTokenPrefix: PushToken.redacted(token.hex))))
        }
        return .empty(outcome == .created ? 201 : 200)
    }

    /// `DELETE /v1/devices/:device/registrations/:passType/:serial` → 200, 401.
    func unregister(_ request: Request) throws(HTTPError) -> Response {
        let (device, passType, serial) = Self.identifiers(request)
        try authenticate(request, passType: passType, serial: serial)
        let removed = try context.storeCall {
            try context.store.unregister(device: device, passType: passType, serial: serial)
        }
        // The registration's row is gone: its event is stored now, before the unregistration.
        if let removed { context.events?.record(.registration(removed, serial: serial, passType: passType)) }
        context.events?.record(
            PassEvent(
                serial: serial, passType: passType, device: device, at: Date(),
                detail: .unregistered(found: removed != nil)))
        return .empty(200)
    }

    /// `GET /v1/devices/:device/registrations/:passType?passesUpdatedSince=TAG` → 200 JSON, 204, 400.
    func list(_ request: Request) throws(HTTPError) -> Response {
        let device = request.parameters["device"], passType = request.parameters["passType"]
        var since: Int64?
        if let text = request.queryValue("passesUpdatedSince"), !text.isEmpty {
            guard let tag = Int64(text), tag >= 0 else {
                throw .badRequest("passesUpdatedSince must be a lastUpdated value this service returned")
            }
            since = tag
        }
        guard
            let result = try context.storeCall({
                try context.store.updatedSerials(device: device, passType: passType, since: since)
            })
        else {
            context.events?.record(
                ListRequest(
                    device: device, passType: passType, since: since, status: 204, serials: [], lastUpdated: nil,
                    at: Date()))
            return .empty(204)
        }
        context.events?.record(
            ListRequest(
                device: device, passType: passType, since: since, status: 200, serials: result.serials,
                lastUpdated: result.lastUpdated, at: Date()))
        let serials = result.serials.map(JSONText.string).joined(separator: ",")
        return .json(200, "{\"lastUpdated\":\"\(result.lastUpdated)\",\"serialNumbers\":[\(serials)]}")
    }

    private static func identifiers(_ request: Request) -> (String, String, String) {
        (request.parameters["device"], request.parameters["passType"], request.parameters["serial"])
    }

    private func authenticate(_ request: Request, passType: String, serial: String) throws(HTTPError) {
        _ = try context.authenticatedVersion(request, passType: passType, serial: serial)
    }
}
