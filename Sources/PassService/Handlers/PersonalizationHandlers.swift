import PassLog
import PassStore
import PassHTTP
/// `POST /v1/passes/:passType/:serial/personalize` (wallet-spec §6, call 6): rewards enrollment.
///
/// Wallet sends no credentials here, and the answer is a signature made with the Pass Type ID key, so the endpoint
/// signs only what Apple's flow needs: a token of Wallet's shape (`PersonalizationRequest`), for a stored pass
/// whose template is personalizable and that is not personalized yet, once per pass. A repeat of the same sign-up
/// gets the stored signature again. Every other request gets the same 404, whether or not the serial exists, after
/// the same store reads; each client address has an hourly budget of requests.
struct PersonalizationHandlers: Sendable {
    let context: HandlerContext

    /// The one answer for a serial that does not exist, a pass that cannot be personalized, one personalized
    /// already with another token, or a voided one.
    static var refusal: HTTPError {
        .notFound("no pass here awaits a rewards sign-up with this token")
    }

    func personalize(_ request: Request) throws(HTTPError) -> Response {
        guard let signing = context.personalization else {
            throw .notFound("personalization is not enabled on this service")
        }
        if let wait = context.personalizeBudget.take(1, from: request.clientAddress) {
            context.metrics.recordUnauthenticated(.personalization, .addressLimit)
            throw HandlerContext.tooMany(
                "this address has made the personalize requests the service takes from one address per hour",
                retryAfter: wait)
        }
        let body: PersonalizationRequest
        do {
            body = try PersonalizationRequest(request)
        } catch {
            context.metrics.recordUnauthenticated(.personalization, .invalid)
            throw error
        }
        let passType = request.parameters["passType"], serial = request.parameters["serial"]
        // Both reads for every serial, known or not: the answer and the work do not tell which serials exist.
        let (found, enrolled) = try context.storeCall {
            (
                try context.store.pass(passType: passType, serial: serial),
                try context.store.enrollment(passType: passType, serial: serial)
            )
        }
        guard let pass = found, !pass.voided else { throw refuse() }
        if pass.personalized { return try repeated(enrolled, token: body.token) }
        guard signing.isPersonalizable(pass) else { throw refuse() }
        let signature: [UInt8]
        do {
            signature = try signing.sign(Array(body.token.utf8))
        } catch {
            ServiceLog.error("signing the personalization token of \(serial) failed", error)
            throw .internalError("the personalization token could not be signed; see the server log")
        }
        let enrollment = PersonalizationEnrollment(
            passTypeIdentifier: passType, serialNumber: serial, token: body.token, info: body.info,
            signature: signature)
        let limit = context.unauthenticated.maxPersonalizationBytes
        let outcome = try context.storeCall { try context.store.storeEnrollment(enrollment, maxStoredBytes: limit) }
        switch outcome {
        case .stored:
            context.metrics.recordUnauthenticated(.personalization, .stored)
            return Self.signed(signature)
        case .alreadyPersonalized(let winner):
            return try repeated(winner, token: body.token)
        case .noPass:
            throw refuse()
        case .overCap:
            context.metrics.recordUnauthenticated(.personalization, .storeCap)
            throw HandlerContext.tooMany(
                "the service stores no more sign-ups until older ones expire",
                retryAfter: context.unauthenticated.capRetryAfterSeconds)
        }
    }

    /// The stored signature again for a repeat of the same sign-up (same token); the refusal for anything else.
    private func repeated(_ enrolled: PersonalizationEnrollment?, token: String) throws(HTTPError) -> Response {
        guard let enrolled, constantTimeEquals(token, enrolled.token) else { throw refuse() }
        context.metrics.recordUnauthenticated(.personalization, .repeated)
        return Self.signed(enrolled.signature)
    }

    private func refuse() -> HTTPError {
        context.metrics.recordUnauthenticated(.personalization, .refused)
        return Self.refusal
    }

    private static func signed(_ signature: [UInt8]) -> Response {
        Response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: .bytes(signature))
    }
}
