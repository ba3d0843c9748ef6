internal import CCurl
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
    fileprivate var body: [UInt8] = []
    fileprivate var retryAfter: Int?

    /// - Parameters:
    ///   - caFile: trust this CA instead of the system store (tests aim at a local stand-in).
    ///   - timeout: the most seconds one request may take.
    package init(caFile: String?, timeout: TimeInterval = 30) throws(GoogleAPIError) {
        _ = GoogleCurlGlobal.initialized
        guard let handle = curl_easy_init() else {
            throw .transport(url: "-", message: "curl_easy_init returned NULL")
        }
        self.handle = handle
        let me = Unmanaged.passUnretained(self).toOpaque()
        var codes = [
            pm_curl_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "https"),
            pm_curl_easy_setopt_long(handle, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2)),
            pm_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            pm_curl_easy_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1),
            pm_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(timeout * 1000)),
            pm_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(min(timeout, 10) * 1000)),
            pm_curl_easy_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, googleCurlWriteBody),
            pm_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, me),
            pm_curl_easy_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, googleCurlWriteHeader),
            pm_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, me),
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
        body.removeAll(keepingCapacity: true)
        retryAfter = nil
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
        return GoogleHTTPResponse(status: status, body: body, retryAfter: retryAfter)
    }

    fileprivate func header(_ line: UnsafeBufferPointer<UInt8>) {
        let prefix = Array("retry-after:".utf8)
        guard line.count > prefix.count else { return }
        for (i, byte) in prefix.enumerated() where (line[i] | 0x20) != byte { return }
        let value = String(decoding: line[prefix.count...], as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        retryAfter = Int(value).map { max(0, min($0, 86_400)) }
    }
}

/// CURLOPT_WRITEFUNCTION: append to the owner's body (capped at `GoogleHTTP.bodyLimit`).
private let googleCurlWriteBody:
    @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, user in
        let total = size * count
        guard let data, let user else { return total }
        let owner = Unmanaged<GoogleHTTP>.fromOpaque(user).takeUnretainedValue()
        let room = max(0, GoogleHTTP.bodyLimit - owner.body.count)
        data.withMemoryRebound(to: UInt8.self, capacity: total) { bytes in
            owner.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: min(total, room)))
        }
        return total
    }

/// CURLOPT_HEADERFUNCTION: one header line per call; keeps `Retry-After`.
private let googleCurlWriteHeader:
    @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, user in
        let total = size * count
        guard let data, let user else { return total }
        let owner = Unmanaged<GoogleHTTP>.fromOpaque(user).takeUnretainedValue()
        data.withMemoryRebound(to: UInt8.self, capacity: total) { bytes in
            owner.header(UnsafeBufferPointer(start: bytes, count: total))
        }
        return total
    }
