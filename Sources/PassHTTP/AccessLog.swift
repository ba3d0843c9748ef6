import Foundation
import PassModel

/// The service's access log: one JSON Lines object per answered request,
/// `{"time","method","route","status","bytes","duration_ms"}`.
///
/// A line names the route pattern (`GET /v1/passes/:passType/:serial`) or `unmatched`, never the path, the query
/// or a header: paths hold device library identifiers and serials, headers hold authentication tokens, bodies
/// hold push tokens. Lines are buffered in memory and written by a thread of the log's own (see
/// `BufferedLogWriter`), so a slow disk never holds up a request.
package final class AccessLog: Sendable {
    /// Where the lines go.
    package enum Destination: Sendable, Equatable, CustomStringConvertible {
        case standardOutput
        case standardError
        /// A file opened for appending, created with mode 0600 when absent.
        case file(String)

        package var description: String {
            switch self {
            case .standardOutput: "standard output"
            case .standardError: "standard error"
            case .file(let path): path
            }
        }
    }

    package let destination: Destination
    private let writer: BufferedLogWriter

    /// Opens the destination and starts the writer thread.
    /// - Parameter flushInterval: longest time a line waits in memory.
    /// - Throws: `HTTPServerError.accessLog` when the file cannot be opened for appending.
    package init(_ destination: Destination, flushInterval: Duration = .seconds(1)) throws(HTTPServerError) {
        let fd: Int32
        switch destination {
        case .standardOutput: fd = STDOUT_FILENO
        case .standardError: fd = STDERR_FILENO
        case .file(let path):
            fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                throw .accessLog(path: path, errno: errno)
            }
        }
        self.destination = destination
        // The standard streams belong to the process: written to, never closed.
        let ownsDescriptor = if case .file = destination { true } else { false }
        writer = BufferedLogWriter(
            fd: fd, ownsDescriptor: ownsDescriptor, name: "access log \(destination)", interval: flushInterval)
    }

    deinit { writer.close() }

    /// Writes every line recorded so far before returning (the service calls it when it stops).
    package func flush() { writer.flush() }

    /// Records one answered request.
    /// - Parameters:
    ///   - route: the route label or "unmatched".
    ///   - bytes: the size of the response body.
    package func record(method: HTTPMethod, route: String, status: Int, bytes: Int, duration: Duration) {
        let now = AccessLogLine.wallClock()
        writer.append(reserve: AccessLogLine.maxFixedBytes + method.rawValue.utf8.count * 6 + route.utf8.count * 6) {
            AccessLogLine.write(
                into: &$0, time: now, method: method.rawValue, route: route, status: status, bytes: bytes,
                duration: duration)
        }
    }
}

/// The text of one access log line, written straight into the log's buffer (nothing allocated per line).
enum AccessLogLine {
    /// Most bytes a line takes besides its method and route: keys, time, three numbers, punctuation.
    static let maxFixedBytes = 160

    /// Seconds and milliseconds since 1970, UTC.
    static func wallClock() -> (seconds: Int, milliseconds: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return (now.tv_sec, now.tv_nsec / 1_000_000)
    }

    static func write(
        into out: inout [UInt8], time: (seconds: Int, milliseconds: Int), method: String, route: String, status: Int,
        bytes: Int, duration: Duration
    ) {
        append(#"{"time":""#, to: &out)
        appendTime(time, to: &out)
        append(#"","method":"#, to: &out)
        JSONWriter.writeString(method, into: &out)
        append(#","route":"#, to: &out)
        JSONWriter.writeString(route, into: &out)
        append(#","status":"#, to: &out)
        appendDecimal(UInt64(clamping: status), to: &out)
        append(#","bytes":"#, to: &out)
        appendDecimal(UInt64(clamping: bytes), to: &out)
        append(#","duration_ms":"#, to: &out)
        let components = duration.components
        let microseconds =
            UInt64(clamping: components.seconds) &* 1_000_000
            &+ UInt64(clamping: components.attoseconds / 1_000_000_000_000)
        appendDecimal(microseconds / 1000, to: &out)
        out.append(UInt8(ascii: "."))
        appendDigits(microseconds % 1000, width: 3, to: &out)
        append("}\n", to: &out)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    private static func appendTime(_ time: (seconds: Int, milliseconds: Int), to out: inout [UInt8]) {
        var seconds = time_t(time.seconds)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        appendDigits(UInt64(parts.tm_year + 1900), width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(UInt64(parts.tm_mon + 1), width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(UInt64(parts.tm_mday), width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendDigits(UInt64(parts.tm_hour), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(UInt64(parts.tm_min), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(UInt64(parts.tm_sec), width: 2, to: &out)
        out.append(UInt8(ascii: "."))
        appendDigits(UInt64(time.milliseconds), width: 3, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    private static func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
        var width = 1
        var rest = value / 10
        while rest > 0 {
            width += 1
            rest /= 10
        }
        appendDigits(value, width: width, to: &out)
    }

    /// `value` in exactly `width` decimal digits, zero-padded (higher digits are cut).
    private static func appendDigits(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        let start = out.count
        for _ in 0..<width { out.append(UInt8(ascii: "0")) }
        var rest = value
        var index = start + width - 1
        while index >= start {
            out[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
    }
}
