import Foundation
import PassModel

/// Google's root signing keys for callbacks, as `https://pay.google.com/gp/m/issuer/keys` serves them:
/// `{"keys": [{"keyValue": "<base64 DER>", "protocolVersion": "ECv2SigningOnly", "keyExpiration": "<ms>"}]}`.
/// PassMint reads them from a file (fetching them is left to the operator, so a flood of forged callbacks never
/// turns into outbound traffic); keys of another protocol are ignored, expired ones are skipped at each check.
package struct GoogleRootKeys: Sendable {
    struct Key: Sendable {
        let key: ECSigningKey
        /// Milliseconds since 1970; nil: no expiry given.
        let expiration: Int64?
    }

    let keys: [Key]

    /// The most bytes the file may have (Google's holds two or three keys, well under 4 KB).
    package static let maxFileBytes = 256 << 10

    /// Reads the keys file.
    /// - Throws: `GoogleCallbackError.rootKeys` naming the file and what is wrong.
    package static func load(path: String) throws(GoogleCallbackError) -> GoogleRootKeys {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .rootKeys(file: path, problem: .unreadable)
        }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maxFileBytes + 1) else {
            throw .rootKeys(file: path, problem: .unreadable)
        }
        guard data.count <= maxFileBytes else { throw .rootKeys(file: path, problem: .tooLarge(limit: maxFileBytes)) }
        return try GoogleRootKeys(json: Array(data), file: path)
    }

    /// Parses the keys JSON.
    package init(json: [UInt8], file: String) throws(GoogleCallbackError) {
        guard let root = try? JSONReader.parse(json, file: file).value, let entries = root["keys"]?.arrayValue else {
            throw .rootKeys(file: file, problem: .notKeysJSON)
        }
        var keys: [Key] = []
        for (index, entry) in entries.enumerated() {
            guard entry["protocolVersion"]?.stringValue == GoogleCallbackVerifier.protocolVersion else { continue }
            guard let text = entry["keyValue"]?.stringValue, let der = Data(base64Encoded: text),
                let key = ECSigningKey(der: Array(der))
            else {
                throw .rootKeys(file: file, problem: .badKey(index: index))
            }
            keys.append(Key(key: key, expiration: GoogleCallbackVerifier.milliseconds(entry["keyExpiration"])))
        }
        guard !keys.isEmpty else {
            throw .rootKeys(file: file, problem: .noKeys)
        }
        self.keys = keys
    }

    /// The keys not expired at `now`.
    func current(at now: Date) -> [ECSigningKey] {
        let millis = Int64(now.timeIntervalSince1970 * 1000)
        return keys.filter { ($0.expiration ?? .max) > millis }.map(\.key)
    }
}
