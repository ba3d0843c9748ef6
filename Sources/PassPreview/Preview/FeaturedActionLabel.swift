import PassModel

/// The call to action and glyph Wallet draws for a featured action type (iOS 27). Apple localizes the titles;
/// the preview shows the English ones.
enum FeaturedActionLabel {
    static func title(_ type: FeaturedActionType?) -> (title: String, glyph: String) {
        switch type?.rawValue {
        case "viewSchedule": return ("View Schedule", "\u{1F4C5}")
        case "watchTrailer": return ("Watch Trailer", "\u{25B6}")
        case "listenToMusic": return ("Listen to Music", "\u{266B}")
        case "call": return ("Call", "\u{260E}")
        case "place": return ("Get Directions", "\u{27A4}")
        case "addToBalance": return ("Add to Balance", "+")
        case "order": return ("Order", "\u{2615}")
        case "shop": return ("Shop", "\u{2302}")
        case "membershipBenefits": return ("Membership Benefits", "\u{2605}")
        case "bookAppointment": return ("Book Appointment", "\u{231A}")
        case "bookCar": return ("Book a Car", "\u{2708}")
        case "bookFlight": return ("Book a Flight", "\u{2708}")
        case "bookStay": return ("Book a Stay", "\u{2302}")
        case "viewOffersRewards": return ("View Offers & Rewards", "\u{2665}")
        case let other?: return (other, "\u{2022}")
        case nil: return ("Action", "\u{2022}")
        }
    }
}
