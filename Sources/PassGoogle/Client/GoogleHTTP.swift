internal import CCurl
import PassCurl
import Foundation

/// One HTTPS request to Google (or a stand-in).
package struct GoogleHTTPRequest: Sendable {
    package var method: String
    package var url: String
    package var headers: [String]
    package var body: [UInt8]?

    package init(method: String, url: String, headers: [String] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// What came back.
package struct GoogleHTTPResponse: Sendable {
    package var status: Int
    /// At most `GoogleHTTP.bodyLimit` bytes.
    package var body: [UInt8]
    /// `Retry-After` in seconds, when the answer had one.
    package var retryAfter: Int?
}

/// `curl_global_init` once per process.
enum GoogleCurlGlobal {
    static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
}

/// Owner of one curl easy handle for blocking HTTPS requests to Google's API and token endpoint: reused, so the
/// connection (and TLS session) stays open between calls. Not Sendable: one per thread; deinit frees it.
package final class GoogleHTTP {
    /// The most bytes of an answer kept (objects with all their modules stay well below; more is cut).
    package static let bodyLimit = 4 << 20

    private let handle: UnsafeMutableRawPointer
    /// The answer of the current request: body and `Retry-After`.
    private let response = CurlResponseCapture(bodyLimit: GoogleHTTP.bodyLimit, header: "retry-after")

    /// - Parameters:
    ///   - caFile: trust this CA instead of the system store (tests aim at a local stand-in).
    ///   - timeout: the most seconds one request may take.
    package init(caFile: String?, timeout: TimeInterval = 30) throws(GoogleAPIError) {
        _ = GoogleCurlGlobal.initialized
        guard let handle = curl_easy_init() else {
            throw .transport(url: "-", message: "curl_easy_init returned NULL")
        }
        self.handle = handle
        var codes = [
            pm_curl_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "https"),
            pm_curl_easy_setopt_long(handle, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2)),
            pm_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            pm_curl_easy_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1),
            pm_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(timeout * 1000)),
            pm_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(min(timeout, 10) * 1000)),
            response.attach(to: handle),
        ]
        if let caFile { codes.append(pm_curl_easy_setopt_string(handle, CURLOPT_CAINFO, caFile)) }
        if let failed = codes.first(where: { $0 != CURLE_OK }) {
            curl_easy_cleanup(handle)
            throw .transport(url: "-", message: String(cString: curl_easy_strerror(failed)))
        }
    }

    deinit { curl_easy_cleanup(handle) }

    /// Sends `request` and waits for the answer.
    /// - Throws: `GoogleAPIError.transport` when no HTTP answer came.
    package func send(_ request: GoogleHTTPRequest) throws(GoogleAPIError) -> GoogleHTTPResponse {
        response.reset()
        var list: UnsafeMutablePointer<curl_slist>?
        defer { if let list { curl_slist_free_all(list) } }
        for line in request.headers + ["Expect:"] {
            guard let next = curl_slist_append(list, line) else {
                throw .transport(url: request.url, message: "out of memory building the headers")
            }
            list = next
        }
        var codes = [
            pm_curl_easy_setopt_string(handle, CURLOPT_URL, request.url),
            pm_curl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, list),
        ]
        if let payload = request.body {
            codes.append(pm_curl_easy_setopt_long(handle, CURLOPT_POST, 1))
            codes.append(pm_curl_easy_setopt_long(handle, CURLOPT_POSTFIELDSIZE, payload.count))
            codes.append(
                payload.withUnsafeBytes { raw in
                    pm_curl_easy_setopt_pointer(
                        handle, CURLOPT_COPYPOSTFIELDS,
                        UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
                })
        } else {
            codes.append(pm_curl_easy_setopt_long(handle, CURLOPT_HTTPGET, 1))
        }
        codes.append(pm_curl_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method))
        if let failed = codes.first(where: { $0 != CURLE_OK }) {
            throw .transport(url: request.url, message: String(cString: curl_easy_strerror(failed)))
        }
        let code = curl_easy_perform(handle)
        guard code == CURLE_OK else {
            throw .transport(url: request.url, message: String(cString: curl_easy_strerror(code)))
        }
        var status = 0
        _ = pm_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        let retryAfter = response.headerValue.flatMap { Int($0) }.map { max(0, min($0, 86_400)) }
        return GoogleHTTPResponse(status: status, body: response.body, retryAfter: retryAfter)
    }
}
