import CCurl
import Foundation

/// One libcurl transfer's answer as it arrives: the body (up to a limit; the rest is read and dropped) and the
/// value of one header. The object that owns the easy handle owns its capture too, for as long as the handle.
package final class CurlResponseCapture {
    /// The most body bytes kept.
    package let bodyLimit: Int
    /// `name:` in lower case.
    private let headerPrefix: [UInt8]
    /// The body received so far, at most `bodyLimit` bytes.
    package fileprivate(set) var body: [UInt8] = []
    /// The trimmed value of the header named at init, nil when absent or empty.
    package fileprivate(set) var headerValue: String?

    /// - Parameters:
    ///   - bodyLimit: the most body bytes kept.
    ///   - name: the one response header whose value is kept (matched without regard to case).
    package init(bodyLimit: Int, header name: String) {
        self.bodyLimit = bodyLimit
        headerPrefix = Array((name.lowercased() + ":").utf8)
    }

    /// Forgets the previous answer (before the handle's next transfer).
    package func reset() {
        body.removeAll(keepingCapacity: true)
        headerValue = nil
    }

    /// Points `handle`'s body and header callbacks at this capture.
    /// - Returns: the first option libcurl refused, or `CURLE_OK`.
    package func attach(to handle: UnsafeMutableRawPointer) -> CURLcode {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let codes = [
            pm_curl_easy_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, curlCaptureBody),
            pm_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, me),
            pm_curl_easy_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, curlCaptureHeader),
            pm_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, me),
        ]
        return codes.first { $0 != CURLE_OK } ?? CURLE_OK
    }

    fileprivate func header(_ line: UnsafeBufferPointer<UInt8>) {
        guard line.count > headerPrefix.count else { return }
        for (i, byte) in headerPrefix.enumerated() where (line[i] | 0x20) != (byte | 0x20) { return }
        let value = String(decoding: line[headerPrefix.count...], as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        headerValue = value.isEmpty ? nil : value
    }
}

/// CURLOPT_WRITEFUNCTION: append to the capture's body (capped).
private let curlCaptureBody: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int =
    {
        data, size, count, user in
        let total = size * count
        guard let data, let user else { return total }
        let capture = Unmanaged<CurlResponseCapture>.fromOpaque(user).takeUnretainedValue()
        let room = max(0, capture.bodyLimit - capture.body.count)
        data.withMemoryRebound(to: UInt8.self, capacity: total) { bytes in
            capture.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: min(total, room)))
        }
        return total
    }

/// CURLOPT_HEADERFUNCTION: one header line per call.
private let curlCaptureHeader:
    @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, user in
        let total = size * count
        guard let data, let user else { return total }
        let capture = Unmanaged<CurlResponseCapture>.fromOpaque(user).takeUnretainedValue()
        data.withMemoryRebound(to: UInt8.self, capacity: total) { bytes in
            capture.header(UnsafeBufferPointer(start: bytes, count: total))
        }
        return total
    }
