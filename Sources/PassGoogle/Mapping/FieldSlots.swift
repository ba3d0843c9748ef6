/// The pass field keys (lower-cased, without `_`, `-`, `.` and spaces) that PassMint puts in Google's own slots;
/// google.json overrides any choice.
enum FieldSlots {
    static let holderName = [
        "membername", "name", "member", "holdername", "holder", "cardholder", "customername", "customer",
        "accountname", "attendeename", "attendee", "ticketholder", "passengername", "passenger", "fullname",
    ]
    static let accountID = [
        "membernumber", "memberid", "accountnumber", "accountid", "cardnumber", "customernumber", "customerid",
        "membershipnumber", "number", "id",
    ]
    static let ticketNumber = ["ticketnumber", "ticket", "ticketid", "confirmationnumber", "confirmation"]
    static let seat = ["seat", "seatnumber"]
    static let row = ["row", "seatrow"]
    static let section = ["section", "seatsection", "block"]
    static let gate = ["gate", "entrance", "door"]
    static let eventName = ["event", "eventname", "title", "show"]
    static let venue = ["venue", "venuename", "location", "place"]
}
