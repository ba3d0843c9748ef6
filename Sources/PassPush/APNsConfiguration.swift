import Foundation

/// Where and how the APNs client connects: base URL, TLS client identity, trust and limits.
package struct APNsConfiguration: Sendable {
    /// The TLS client identity (the Pass Type ID certificate and its private key).
    package enum Credential: Sendable, CustomStringConvertible {
        /// PEM files on disk; `keyPassword` decrypts an encrypted PEM key.
        case pemFiles(certificate: String, key: String, keyPassword: String?)
        /// PEM bytes held in memory (e.g. converted from a .p12), so no decrypted key is written to disk.
        case pemData(certificate: [UInt8], key: [UInt8])

        /// Never prints key material.
        package var description: String {
            switch self {
            case .pemFiles(let cert, let key, _): return "PEM files (certificate \(cert), key \(key))"
            case .pemData(let cert, _): return "in-memory PEM (certificate \(cert.count) bytes, key redacted)"
            }
        }
    }

    /// Apple's production endpoint. Pass updates work only against production.
    package static let productionURL = "https://api.push.apple.com"

    /// Base URL, `https://host[:port]` with no path; requests go to `{baseURL}/3/device/{token}`.
    package var baseURL: String
    /// TLS client certificate and key.
    package var credential: Credential
    /// PEM CA bundle used to verify the server (`--apns-ca`); `nil` uses the system trust store.
    package var caFile: String?
    /// Most requests in flight at once on the single HTTP/2 connection.
    package var maxConcurrentStreams: Int
    /// Time allowed for one request, connection setup included.
    package var requestTimeout: TimeInterval
    /// Time allowed to establish the TCP + TLS connection.
    package var connectTimeout: TimeInterval
    /// Token authentication (an APNs auth key) for the pass types of the key's team; nil: certificates only.
    package var token: APNsTokenAuthentication? = nil
    /// The client certificates of other pass types (by pass type identifier), beside `credential`.
    package var certificates: [String: Credential] = [:]

    /// Creates a configuration.
    /// - Parameters:
    ///   - baseURL: `https://host[:port]`, default Apple production.
    ///   - credential: the Pass Type ID identity as PEM.
    ///   - caFile: optional PEM CA bundle; `nil` trusts the system store.
    ///   - maxConcurrentStreams: streams in flight on the one connection (default 500).
    ///   - requestTimeout: seconds per request (default 30).
    ///   - connectTimeout: seconds to connect (default 10).
    package init(
        baseURL: String = APNsConfiguration.productionURL, credential: Credential, caFile: String? = nil,
        maxConcurrentStreams: Int = 500, requestTimeout: TimeInterval = 30, connectTimeout: TimeInterval = 10
    ) {
        self.baseURL = baseURL
        self.credential = credential
        self.caFile = caFile
        self.maxConcurrentStreams = maxConcurrentStreams
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
    }

    /// The base URL without a trailing slash, checked to be https with a host and no path.
    /// - Throws: `PushError.invalidBaseURL`.
    func normalizedBaseURL() throws(PushError) -> String {
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        guard let parts = URLComponents(string: url), parts.scheme?.lowercased() == "https",
            let host = parts.host, !host.isEmpty, parts.path.isEmpty, parts.query == nil, parts.user == nil
        else { throw .invalidBaseURL(baseURL) }
        if Self.sandboxHosts.contains(host.lowercased()) { throw .sandboxHost(baseURL) }
        return url
    }

    /// Checks everything that can be checked before connecting.
    /// - Throws: `PushError` naming the bad setting or file.
    package func validate() throws(PushError) {
        _ = try normalizedBaseURL()
        guard maxConcurrentStreams > 0 else {
            throw .invalidSetting(name: "maxConcurrentStreams", value: "\(maxConcurrentStreams)")
        }
        guard requestTimeout > 0 else { throw .invalidSetting(name: "requestTimeout", value: "\(requestTimeout)") }
        guard connectTimeout > 0 else { throw .invalidSetting(name: "connectTimeout", value: "\(connectTimeout)") }
        try Self.check(credential)
        for (_, credential) in certificates.sorted(by: { $0.key < $1.key }) { try Self.check(credential) }
        if let caFile { try Self.checkReadable(caFile, role: "CA") }
    }

    /// APNs' development hosts, which never deliver pass updates.
    static let sandboxHosts: Set<String> = ["api.sandbox.push.apple.com", "api.development.push.apple.com"]

    /// How the push of one pass type authenticates: the token for a pass type of the key's team, else the
    /// certificate of that pass type when one is known, else `credential`.
    package func authentication(forTopic topic: String) -> APNsAuthenticationRoute {
        if let token, token.passTypes.contains(topic) { return .token }
        if certificates[topic] != nil { return .certificate(passType: topic) }
        return .certificate(passType: nil)
    }

    /// The client certificate a route uses (nil for the token route).
    func credential(for route: APNsAuthenticationRoute) -> Credential? {
        switch route {
        case .token: return nil
        case .certificate(let passType?): return certificates[passType] ?? credential
        case .certificate(nil): return credential
        }
    }

    private static func check(_ credential: Credential) throws(PushError) {
        switch credential {
        case .pemFiles(let cert, let key, _):
            try checkReadable(cert, role: "client certificate")
            try checkReadable(key, role: "client key")
        case .pemData(let cert, let key):
            guard looksLikePEM(cert) else { throw .invalidPEM(role: "client certificate") }
            guard looksLikePEM(key) else { throw .invalidPEM(role: "client key") }
        }
    }

    private static func checkReadable(_ path: String, role: String) throws(PushError) {
        guard FileManager.default.isReadableFile(atPath: path) else { throw .unreadableFile(role: role, path: path) }
    }

    private static func looksLikePEM(_ bytes: [UInt8]) -> Bool {
        let marker = Array("-----BEGIN".utf8)
        guard bytes.count > marker.count else { return false }
        for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
            if Array(bytes[start..<(start + marker.count)]) == marker { return true }
        }
        return false
    }
}

/// Which connection a push goes out on: the token connection, or the certificate of a pass type (nil: the default
/// credential).
package enum APNsAuthenticationRoute: Sendable, Hashable {
    case token
    case certificate(passType: String?)
}

/// Token authentication of one instance: the shared provider token and the pass types it covers (those of the
/// key's team; a pass type of another team keeps its certificate).
package struct APNsTokenAuthentication: Sendable {
    /// Makes and renews the provider token; one per instance, shared by every connection.
    package let source: ProviderTokenSource
    /// The pass type identifiers of the key's team.
    package var passTypes: Set<String>

    package init(source: ProviderTokenSource, passTypes: Set<String>) {
        self.source = source
        self.passTypes = passTypes
    }
}
