internal import CCurl
import PassCurl
import Foundation

/// `curl_global_init` exactly once per process (Swift runs static initialisers once, thread-safely).
enum CurlGlobal {
    static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
}

/// Owner of one `curl_slist` of request headers; deinit frees it. Easy handles keep a reference while they use it.
final class CurlHeaderList {
    fileprivate let list: UnsafeMutablePointer<curl_slist>

    init(_ lines: [String]) throws(PushError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let next = curl_slist_append(list, line) else {
                if let list { curl_slist_free_all(list) }
                throw .curl(operation: "build the request header list", message: "out of memory")
            }
            list = next
        }
        guard let list else { throw .curl(operation: "build the request header list", message: "no header lines") }
        self.list = list
    }

    deinit { curl_slist_free_all(list) }
}

/// What one finished transfer produced.
struct CurlTransferResult {
    var code: Int32
    var error: String?
    var status: Int
    var body: [UInt8]
    var apnsID: String?
    var newConnections: Int
}

/// Owner of one curl easy handle, reused for many requests; deinit frees it.
/// Holds the per-transfer response buffers that the C callbacks fill.
final class CurlEasy {
    /// Index of this handle in its client's pool; stored as CURLOPT_PRIVATE to find it from a multi message.
    let slot: Int
    fileprivate let handle: UnsafeMutableRawPointer
    private var headers: CurlHeaderList?
    /// The answer of the current transfer: body and `apns-id`.
    private let response = CurlResponseCapture(bodyLimit: 4096, header: "apns-id")
    /// Error bodies are tiny JSON; never buffer more than this.

    /// - Parameter credential: the TLS client certificate; nil connects without one (token authentication).
    init(slot: Int, configuration: APNsConfiguration, credential: APNsConfiguration.Credential?) throws(PushError) {
        _ = CurlGlobal.initialized
        guard let handle = curl_easy_init() else {
            throw .curl(operation: "create an easy handle", message: "curl_easy_init returned NULL")
        }
        self.slot = slot
        self.handle = handle
        try configure(configuration, credential: credential)
    }

    deinit { curl_easy_cleanup(handle) }

    private func check(_ code: CURLcode, _ what: String) throws(PushError) {
        guard code == CURLE_OK else {
            throw .curl(operation: "set \(what)", message: String(cString: curl_easy_strerror(code)))
        }
    }

    /// Options that stay the same for every push sent on this handle.
    private func configure(_ config: APNsConfiguration, credential: APNsConfiguration.Credential?) throws(PushError) {
        try check(
            pm_curl_easy_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)), "HTTP/2 over TLS")
        try check(pm_curl_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "https"), "https only")
        try check(pm_curl_easy_setopt_long(handle, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2)), "TLS 1.2+")
        try check(pm_curl_easy_setopt_long(handle, CURLOPT_PIPEWAIT, 1), "wait for multiplexing")
        try check(pm_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "no signals")
        try check(pm_curl_easy_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1), "TCP keep-alive")
        try check(
            pm_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(config.requestTimeout * 1000)), "request timeout")
        try check(
            pm_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(config.connectTimeout * 1000)),
            "connect timeout")
        // Body `{}`: the size must be set before COPYPOSTFIELDS (otherwise curl runs strlen on it).
        try check(pm_curl_easy_setopt_long(handle, CURLOPT_POST, 1), "POST")
        try check(pm_curl_easy_setopt_long(handle, CURLOPT_POSTFIELDSIZE, 2), "body size")
        try check(pm_curl_easy_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, "{}"), "body")
        switch credential {
        case nil:
            break
        case .pemFiles(let cert, let key, let password)?:
            try check(pm_curl_easy_setopt_string(handle, CURLOPT_SSLCERT, cert), "client certificate file")
            try check(pm_curl_easy_setopt_string(handle, CURLOPT_SSLKEY, key), "client key file")
            if let password {
                try check(pm_curl_easy_setopt_string(handle, CURLOPT_KEYPASSWD, password), "key password")
            }
        case .pemData(let cert, let key)?:
            let certCode = cert.withUnsafeBytes { raw in
                pm_curl_easy_setopt_blob_copy(handle, CURLOPT_SSLCERT_BLOB, raw.baseAddress, raw.count)
            }
            try check(certCode, "client certificate")
            let keyCode = key.withUnsafeBytes { raw in
                pm_curl_easy_setopt_blob_copy(handle, CURLOPT_SSLKEY_BLOB, raw.baseAddress, raw.count)
            }
            try check(keyCode, "client key")
        }
        if credential != nil {
            try check(pm_curl_easy_setopt_string(handle, CURLOPT_SSLCERTTYPE, "PEM"), "certificate type")
            try check(pm_curl_easy_setopt_string(handle, CURLOPT_SSLKEYTYPE, "PEM"), "key type")
        }
        if let ca = config.caFile { try check(pm_curl_easy_setopt_string(handle, CURLOPT_CAINFO, ca), "CA file") }
        try check(response.attach(to: handle), "response callbacks")
        try check(
            pm_curl_easy_setopt_pointer(handle, CURLOPT_PRIVATE, UnsafeMutableRawPointer(bitPattern: slot + 1)), "slot")
    }

    /// Points the handle at one push; clears the previous response.
    func prepare(url: String, headers: CurlHeaderList) throws(PushError) {
        response.reset()
        try check(pm_curl_easy_setopt_string(handle, CURLOPT_URL, url), "URL")
        if self.headers !== headers {
            try check(pm_curl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headers.list), "headers")
            self.headers = headers
        }
    }

    /// Reads status and buffers after the multi handle reported this transfer done.
    func finish(code: CURLcode) -> CurlTransferResult {
        var status = 0
        var connects = 0
        _ = pm_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        _ = pm_curl_easy_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &connects)
        let error = code == CURLE_OK ? nil : String(cString: curl_easy_strerror(code))
        return CurlTransferResult(
            code: Int32(bitPattern: code.rawValue), error: error, status: status, body: response.body,
            apnsID: response.headerValue,
            newConnections: connects)
    }
}

/// Owner of one curl multi handle: the single multiplexed HTTP/2 connection lives in its connection cache.
final class CurlMulti {
    private let handle: UnsafeMutableRawPointer
    private var attached: [Int: CurlEasy] = [:]

    init(maxConcurrentStreams: Int) throws(PushError) {
        _ = CurlGlobal.initialized
        guard let handle = curl_multi_init() else {
            throw .curl(operation: "create a multi handle", message: "curl_multi_init returned NULL")
        }
        self.handle = handle
        try check(
            pm_curl_multi_setopt_long(handle, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX)), "HTTP/2 multiplexing")
        try check(pm_curl_multi_setopt_long(handle, CURLMOPT_MAX_HOST_CONNECTIONS, 1), "one connection per host")
        try check(pm_curl_multi_setopt_long(handle, CURLMOPT_MAX_TOTAL_CONNECTIONS, 1), "one connection")
        try check(
            pm_curl_multi_setopt_long(handle, CURLMOPT_MAX_CONCURRENT_STREAMS, maxConcurrentStreams), "stream limit")
    }

    deinit {
        for easy in attached.values { curl_multi_remove_handle(handle, easy.handle) }
        curl_multi_cleanup(handle)
    }

    private func check(_ code: CURLMcode, _ what: String) throws(PushError) {
        guard code == CURLM_OK else {
            throw .curl(operation: "set \(what)", message: String(cString: curl_multi_strerror(code)))
        }
    }

    func add(_ easy: CurlEasy) throws(PushError) {
        let code = curl_multi_add_handle(handle, easy.handle)
        guard code == CURLM_OK else {
            throw .curl(operation: "start a request", message: String(cString: curl_multi_strerror(code)))
        }
        attached[easy.slot] = easy
    }

    func remove(_ easy: CurlEasy) {
        guard attached.removeValue(forKey: easy.slot) != nil else { return }
        curl_multi_remove_handle(handle, easy.handle)
    }

    /// Drives all transfers as far as they go without blocking.
    func perform() throws(PushError) {
        var running: Int32 = 0
        let code = curl_multi_perform(handle, &running)
        guard code == CURLM_OK else {
            throw .curl(operation: "drive transfers", message: String(cString: curl_multi_strerror(code)))
        }
    }

    /// Blocks until there is socket activity or `timeoutMs` passes.
    func poll(timeoutMs: Int32) {
        var ready: Int32 = 0
        _ = curl_multi_poll(handle, nil, 0, timeoutMs, &ready)
    }

    /// Finished transfers since the last call: (slot, result code). The handles are still attached.
    func completed() -> [(slot: Int, code: CURLcode)] {
        var done: [(slot: Int, code: CURLcode)] = []
        var queued: Int32 = 0
        while let message = curl_multi_info_read(handle, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            var tag: UnsafeMutableRawPointer?
            guard pm_curl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &tag) == CURLE_OK, let tag else { continue }
            done.append((slot: Int(bitPattern: tag) - 1, code: pm_curl_msg_result(message)))
        }
        return done
    }
}
