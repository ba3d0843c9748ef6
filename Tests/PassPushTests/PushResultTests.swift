import Foundation
import Testing
@testable import PassPush

@Suite("Push results and tokens")
struct PushResultTests {
    @Test(
        "APNs status and reason map to an outcome",
        arguments: [
            (200, nil, PushOutcome.delivered),
            (410, "Unregistered", .unregistered(reason: "Unregistered")),
            (410, "ExpiredToken", .unregistered(reason: "ExpiredToken")),
            (410, nil, .unregistered(reason: "Unregistered")),
            (400, "BadDeviceToken", .unregistered(reason: "BadDeviceToken")),
            (400, "DeviceTokenNotForTopic", .unregistered(reason: "DeviceTokenNotForTopic")),
            (400, "BadTopic", .failed(reason: "BadTopic")),
            (400, "PayloadEmpty", .failed(reason: "PayloadEmpty")),
            (403, "BadCertificate", .failed(reason: "BadCertificate")),
            (404, nil, .failed(reason: .status(404))),
            (413, "PayloadTooLarge", .failed(reason: "PayloadTooLarge")),
            (429, "TooManyRequests", .retry(reason: "TooManyRequests")),
            (500, "InternalServerError", .retry(reason: "InternalServerError")),
            (503, nil, .retry(reason: .status(503))),
        ] as [(Int, String?, PushOutcome)])
    func classify(status: Int, reason: String?, expected: PushOutcome) {
        #expect(PushOutcome.classify(status: status, reason: reason) == expected)
    }

    @Test("labels for metrics")
    func labels() {
        #expect(PushOutcome.delivered.label == "delivered")
        #expect(PushOutcome.unregistered(reason: "x").label == "unregistered")
        #expect(PushOutcome.retry(reason: "x").label == "retry")
        #expect(PushOutcome.failed(reason: "x").label == "failed")
    }

    @Test("the reason of an APNs error body")
    func errorReason() {
        #expect(APNsClient.errorReason(Array(#"{"reason":"BadDeviceToken"}"#.utf8)) == "BadDeviceToken")
        #expect(
            APNsClient.errorReason(Array(#"{"reason":"Unregistered","timestamp":1700000000000}"#.utf8))
                == "Unregistered")
        #expect(APNsClient.errorReason([]) == nil)
        #expect(APNsClient.errorReason(Array("<html>".utf8)) == nil)
        #expect(APNsClient.errorReason(Array(#"{"reason":""}"#.utf8)) == nil)
    }

    @Test("only even-length hex tokens are sent")
    func tokenValidation() {
        #expect(PushToken.isValid(String(repeating: "ab", count: 32)))
        #expect(PushToken.isValid("ABCDEF0123"))
        #expect(!PushToken.isValid(""))
        #expect(!PushToken.isValid("abc"))
        #expect(!PushToken.isValid("ab/../cd0"))
        #expect(!PushToken.isValid("zz"))
        #expect(!PushToken.isValid("ab cd0"))
        #expect(!PushToken.isValid(String(repeating: "a", count: 202)))
    }

    @Test("logged tokens are a short prefix only")
    func redaction() {
        let token = String(repeating: "0123456789abcdef", count: 4)
        #expect(PushToken.redacted(token) == "01234567…")
        #expect(PushToken.redacted("abcd") == "ab…")
        #expect(!PushToken.redacted("not hex\ninjected").contains("\n"))
    }

    @Test("topics that could break a header line are refused")
    func topics() {
        #expect(APNsClient.isValidTopic("pass.com.example.loyalty"))
        #expect(!APNsClient.isValidTopic(""))
        #expect(!APNsClient.isValidTopic("pass.x\r\nx-evil: 1"))
        #expect(!APNsClient.isValidTopic("pass x"))
    }

    @Test("request headers are exactly the APNs set")
    func headerLines() {
        #expect(
            APNsClient.headerLines(topic: "pass.com.example.loyalty") == [
                "apns-topic: pass.com.example.loyalty", "apns-push-type: background", "apns-priority: 5",
                "apns-expiration: 0", "content-type: application/json", "Accept:",
            ])
    }
}
