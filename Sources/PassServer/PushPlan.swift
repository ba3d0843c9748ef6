import Foundation
import PassSigning
import PassPush

/// How `serve` authenticates pushes: an APNs auth key for the pass types of its team, and each other pass type's
/// certificate; said at start, one line per pass type.
package struct PushPlan: Sendable, Equatable {
    /// How one pass type's pushes authenticate.
    package enum Method: Sendable, Equatable {
        /// A provider token made with the auth key `keyID` of `team`.
        case token(keyID: String, team: String)
        /// The certificate with `subject` and `serial` as TLS client certificate.
        case certificate(subject: String, serial: String)
    }

    /// One pass type's route; `team` when a certificate names it.
    package struct Route: Sendable, Equatable {
        package var passType: String
        package var team: String?
        package var method: Method
    }

    package var routes: [Route]

    /// The plan of `configuration` for `passTypes` (the signing certificate's, the push certificates' and the
    /// stored passes'), with the certificates it knows of.
    static func make(
        configuration: APNsConfiguration, passTypes: Set<String>, certificates: [String: Certificate],
        defaultCertificate: Certificate
    ) -> PushPlan {
        PushPlan(
            routes: passTypes.sorted().map { passType in
                let team = certificates[passType]?.teamIdentifier
                switch configuration.authentication(forTopic: passType) {
                case .token:
                    let key = configuration.token!.source.key
                    return Route(passType: passType, team: team, method: .token(keyID: key.keyID, team: key.teamID))
                case .certificate(let named):
                    let certificate = named.flatMap { certificates[$0] } ?? defaultCertificate
                    return Route(
                        passType: passType, team: team,
                        method: .certificate(subject: certificate.subject, serial: certificate.serialNumberHex))
                }
            })
    }

    /// One line per pass type, for the log at start.
    package var lines: [String] {
        routes.map { route in
            let team = route.team.map { " (team \($0))" } ?? ""
            switch route.method {
            case .token(let keyID, let keyTeam):
                return "pushes for \(route.passType)\(team): APNs provider token, auth key \(keyID) of team \(keyTeam)"
            case .certificate(let subject, let serial):
                return "pushes for \(route.passType)\(team): certificate \(subject), serial \(serial)"
            }
        }
    }
}
