import PassModel
import Testing
@testable import PassGoogle

@Suite("GoogleAnnouncement: Apple's changeMessage as a Google message")
struct GoogleAnnouncementTests {
    private func pass(tier: String, points: Int, name: String = "Ada") -> JSONValue {
        [
            "organizationName": "Coffee Club",
            "storeCard": [
                "headerFields": [
                    ["key": "tier", "label": "Tier", "value": .string(tier), "changeMessage": "You are now %@"]
                ],
                "primaryFields": [
                    [
                        "key": "points", "label": "Points", "value": .integer(Int64(points)),
                        "changeMessage": "Your balance is %@ points",
                    ]
                ],
                "secondaryFields": [["key": "name", "label": "Member", "value": .string(name)]],
            ],
        ]
    }

    @Test("a changed field with a changeMessage is announced with the new value, under its label")
    func oneField() {
        let made = GoogleAnnouncement.between(
            old: pass(tier: "Silver", points: 10), new: pass(tier: "Gold", points: 10))
        #expect(made == GoogleAnnouncement(header: "Tier", body: "You are now Gold"))
    }

    @Test("several changed fields make one message, one line each, under the organization")
    func twoFields() {
        let made = GoogleAnnouncement.between(
            old: pass(tier: "Silver", points: 10), new: pass(tier: "Gold", points: 25))
        #expect(made?.header == "Coffee Club")
        #expect(made?.body == "You are now Gold\nYour balance is 25 points")
    }

    @Test("a field without changeMessage, an unchanged pass, or no earlier version announce nothing")
    func silent() {
        #expect(
            GoogleAnnouncement.between(
                old: pass(tier: "Gold", points: 1), new: pass(tier: "Gold", points: 1, name: "Bo")) == nil)
        #expect(
            GoogleAnnouncement.between(old: pass(tier: "Gold", points: 1), new: pass(tier: "Gold", points: 1)) == nil)
        #expect(GoogleAnnouncement.between(old: nil, new: pass(tier: "Gold", points: 1)) == nil)
    }

    @Test("the Wallet API message: TEXT_AND_NOTIFY, or TEXT when silent, with the id given")
    func message() {
        let made = GoogleAnnouncement(header: "Tier", body: "You are now Gold")
        #expect(made.message(id: "passmint-7", notify: true)["messageType"] == "TEXT_AND_NOTIFY")
        #expect(made.message(id: "passmint-7", notify: false)["messageType"] == "TEXT")
        #expect(made.message(id: "passmint-7", notify: true)["id"] == "passmint-7")
        #expect(GoogleAnnouncement(header: "h", body: String(repeating: "x", count: 900)).body.count == 500)
    }
}

@Suite("GoogleRetryPolicy")
struct GoogleRetryPolicyTests {
    let policy = GoogleRetryPolicy(initialDelay: 1, refusedDelay: 300, maxDelay: 3600, jitter: 0)

    @Test("429, 5xx and no answer back off exponentially, at least Retry-After, up to the cap")
    func transient() {
        #expect(policy.decision(for: .server(resource: "r", status: 503), attempts: 0) == .retry(after: 1))
        #expect(policy.decision(for: .server(resource: "r", status: 500), attempts: 3) == .retry(after: 8))
        #expect(policy.decision(for: .rateLimited(resource: "r", retryAfter: 30), attempts: 0) == .retry(after: 30))
        #expect(policy.decision(for: .transport(url: "u", message: "m"), attempts: 20) == .retry(after: 3600))
        #expect(policy.decision(for: .transport(url: "u", message: "m"), attempts: 59) == .giveUp)
    }

    @Test("403 waits long and is given up in the end; 400 and the like at once")
    func refused() {
        let forbidden = GoogleAPIError.forbidden(resource: "r", account: "a@b", issuerID: "1", message: "m")
        #expect(policy.decision(for: forbidden, attempts: 0) == .retry(after: 300))
        #expect(policy.decision(for: forbidden, attempts: 11) == .giveUp)
        #expect(policy.decision(for: .rejected(resource: "r", status: 400, message: "m"), attempts: 0) == .giveUp)
    }

    @Test("a 403 says what to fix in Google's console, naming the account and the issuer")
    func forbiddenWords() {
        let text = GoogleAPIError.forbidden(
            resource: "loyaltyObject/1.A", account: "pm@proj.iam.gserviceaccount.com", issuerID: "3388",
            message: "denied"
        ).description
        #expect(text.contains("Google Pay & Wallet Console"))
        #expect(text.contains("pm@proj.iam.gserviceaccount.com"))
        #expect(text.contains("3388"))
    }
}
