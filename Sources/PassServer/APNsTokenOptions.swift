import Foundation
import PassMint
import PassSigning
import PassPush

/// Where `serve` finds its APNs auth key: the `.p8` file, its key ID and its team ID. Token authentication is
/// what other libraries use in production for pass updates; Apple documents only the certificate, which stays the
/// default.
package struct APNsTokenOptions: Sendable {
    package var keyPath: String
    package var keyID: String
    package var teamID: String

    package init(keyPath: String, keyID: String, teamID: String) {
        self.keyPath = keyPath
        self.keyID = keyID
        self.teamID = teamID
    }

    /// Loads the key (checked to be EC P-256) and makes the instance's token source; the token covers the pass
    /// types `passTypesOfTeam` returns for the key's team.
    /// - Returns: the authentication, and a warning when the key file is readable by its group or others.
    /// - Throws: `ServerError.apnsKey` naming the key file (never its content) and what is wrong.
    func load(passTypesOfTeam: (String) -> Set<String>) throws(ServerError) -> (
        authentication: APNsTokenAuthentication, warnings: [String]
    ) {
        guard FileManager.default.isReadableFile(atPath: keyPath) else {
            throw .apnsKey(path: keyPath, .unreadable)
        }
        let key: ES256Key
        do { key = try ES256Key.load(path: keyPath) } catch { throw .apnsKey(path: keyPath, .notES256(error)) }
        let source: ProviderTokenSource
        do throws(PushError) {
            source = try ProviderTokenSource(key: try APNsTokenKey(key: key, keyID: keyID, teamID: teamID))
        } catch {
            throw .apnsKey(path: keyPath, .invalid(error))
        }
        var warnings: [String] = []
        if let mode = (try? FileManager.default.attributesOfItem(atPath: keyPath))?[.posixPermissions] as? Int,
            mode & 0o077 != 0
        {
            warnings.append(
                "\(keyPath) holds the APNs auth key and is readable by " + (mode & 0o007 != 0 ? "others" : "its group")
                    + " (mode \(String(mode & 0o777, radix: 8))); restrict it with chmod 600 \(keyPath)")
        }
        let passTypes = passTypesOfTeam(teamID)
        if passTypes.isEmpty {
            warnings.append(
                "the APNs auth key \(keyID) is of team \(teamID), and no certificate here is: every pass type keeps "
                    + "pushing with its certificate")
        }
        return (APNsTokenAuthentication(source: source, passTypes: passTypes), warnings)
    }
}
