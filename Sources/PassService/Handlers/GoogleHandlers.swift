import Foundation
import PassGoogle
import PassHTTP
import PassStore

/// Google Wallet's routes: the images Google fetches by URL (`GET /google/images/<sha256>.<png|jpg>`, every
/// template file and member photo the store holds, by the SHA-256 of its bytes: immutable, cacheable by anyone)
/// and Google's save and delete callbacks (`POST /google/callbacks`).
struct GoogleHandlers: Sendable {
    let context: HandlerContext
    let store: (any GoogleWalletStore)?
    let hooks: GoogleWalletHooks?

    /// `GET /google/images/:file`. Unknown digests answer 404; a known one is the same bytes forever.
    func image(_ request: Request) throws(HTTPError) -> Response {
        guard let store,
            let (digest, fileExtension) = GoogleImageURL.parse(
                path: GoogleImageURL.pathPrefix + request.parameters["file"]),
            let image = try context.storeCall({ try store.publicImage(digest: digest) }),
            GoogleImageURL.fileExtension(of: image.bytes) == fileExtension
        else { throw .notFound("no image has this address") }
        var response = Response(status: 200, body: .bytes(image.bytes))
        response.headers.add("Content-Type", fileExtension == "jpg" ? "image/jpeg" : "image/png")
        response.headers.add("Cache-Control", "public, max-age=31536000, immutable")
        response.headers.add("ETag", "\"\(digest)\"")
        response.headers.add("X-Content-Type-Options", "nosniff")
        return response
    }

    /// `POST /google/callbacks`: a verified save or delete is counted once (by its nonce) in the install figures;
    /// a forged, expired or malformed one is refused (400/401) and a replay answers 409, neither counted.
    func callback(_ request: Request) throws(HTTPError) -> Response {
        guard let store, let verify = hooks?.verifyCallback else {
            throw .notFound("this service takes no Google Wallet callbacks")
        }
        let event: GoogleCallbackEvent
        do { event = try verify(request.body) } catch {
            context.metrics.recordGoogleCallback(outcome: "refused")
            throw error.httpError
        }
        let outcome = try context.storeCall { try store.recordGoogleCallback(event) }
        switch outcome {
        case .replay:
            context.metrics.recordGoogleCallback(outcome: "replay")
            throw HTTPError(409, "this callback's nonce was seen before; it is counted once")
        case .counted, .unknownObject:
            context.metrics.recordGoogleCallback(outcome: event.kind == .save ? "save" : "delete")
            return .json(200, "{}")
        }
    }
}

extension GoogleCallbackError {
    /// A refused callback is the caller's fault (400 malformed, 401 a signature or expiry that does not hold);
    /// unusable root keys are the service's (500, logged).
    var httpError: HTTPError {
        switch self {
        case .rootKeys: return HTTPError(500, "the service cannot verify Google Wallet callbacks")
        case .malformed, .wrongProtocol, .unknownEvent: return HTTPError(400, description)
        case .intermediateNotSigned, .intermediateExpired, .messageNotSigned, .messageExpired, .otherIssuer:
            return HTTPError(401, description)
        }
    }
}
