import Synchronization

/// Request-duration histograms, one per route of the table plus "unmatched", in fixed buckets: Prometheus's
/// `passmint_http_request_duration_seconds`.
///
/// Recording is on every request's path, so it is two relaxed atomic adds into counters allocated once (the
/// route's bucket and its sum); nothing is locked, hashed or allocated per request. Buckets count their own
/// requests only; `render` makes them cumulative and derives `_count` from them, so the text it writes is
/// consistent even while requests are being recorded.
final class RequestDurations: @unchecked Sendable {  // the counters are atomics; the pointer is set once in init
    /// Upper bounds of the buckets, in seconds: from a cached 304 to a pass rendered and signed on a loaded host.
    static let bounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    /// The route labels, by index; the last is "unmatched".
    let routes: [String]
    private let boundNanoseconds: [UInt64]
    /// Per route: one counter per bound, one for +Inf, then the sum in nanoseconds.
    private let stride: Int
    private let counters: UnsafeMutablePointer<Atomic<UInt64>>
    private let counterCount: Int

    /// - Parameter routes: the labels of the route table ("GET /healthz"), in table order; "unmatched" is added.
    init(routes: [String]) {
        self.routes = routes + ["unmatched"]
        boundNanoseconds = Self.bounds.map { UInt64(($0 * 1e9).rounded()) }
        stride = Self.bounds.count + 2
        counterCount = self.routes.count * stride
        counters = .allocate(capacity: counterCount)
        for index in 0..<counterCount { (counters + index).initialize(to: Atomic(0)) }
    }

    deinit {
        counters.deinitialize(count: counterCount)
        counters.deallocate()
    }

    /// The index `record` takes for a request that matched no route.
    var unmatched: Int { routes.count - 1 }

    /// Counts one request of route `index` (an index of the table, or `unmatched`) that took `duration`.
    func record(route index: Int, duration: Duration) {
        let route = index >= 0 && index < routes.count ? index : unmatched
        let components = duration.components
        let nanoseconds =
            UInt64(clamping: components.seconds) &* 1_000_000_000
            &+ UInt64(clamping: components.attoseconds / 1_000_000_000)
        var bucket = 0
        while bucket < boundNanoseconds.count && nanoseconds > boundNanoseconds[bucket] { bucket += 1 }
        let base = route * stride
        counters[base + bucket].wrappingAdd(1, ordering: .relaxed)
        counters[base + stride - 1].wrappingAdd(nanoseconds, ordering: .relaxed)
    }

    /// How many requests of route `index` were recorded.
    func count(route index: Int) -> UInt64 {
        (0..<(stride - 1)).reduce(0) { $0 + counters[index * stride + $1].load(ordering: .relaxed) }
    }

    /// The histogram family in Prometheus text format; routes that saw no request are left out.
    func render(label: (String) -> String) -> String {
        var out = "# HELP passmint_http_request_duration_seconds Time to answer a request, by route.\n"
        out += "# TYPE passmint_http_request_duration_seconds histogram\n"
        for (index, route) in routes.enumerated() {
            let base = index * stride
            let perBucket = (0..<(stride - 1)).map { counters[base + $0].load(ordering: .relaxed) }
            let total = perBucket.reduce(0, +)
            guard total > 0 else { continue }
            let name = label(route)
            var cumulative: UInt64 = 0
            for (bucket, count) in perBucket.enumerated() {
                cumulative += count
                let le = bucket < Self.bounds.count ? Self.boundText(Self.bounds[bucket]) : "+Inf"
                out += "passmint_http_request_duration_seconds_bucket{route=\(name),le=\"\(le)\"} \(cumulative)\n"
            }
            let seconds = Double(counters[base + stride - 1].load(ordering: .relaxed)) / 1e9
            out += "passmint_http_request_duration_seconds_sum{route=\(name)} \(seconds)\n"
            out += "passmint_http_request_duration_seconds_count{route=\(name)} \(total)\n"
        }
        return out
    }

    /// A bound as Prometheus clients write it: "0.0005", "1", "2.5".
    private static func boundText(_ bound: Double) -> String {
        bound == bound.rounded() ? String(Int(bound)) : String(bound)
    }
}
