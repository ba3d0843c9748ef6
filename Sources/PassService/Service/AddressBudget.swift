import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A budget per client address that refills evenly over an hour (a token bucket holding one hour's worth), for
/// what callers without credentials may do. An IPv6 address counts by its /64, the block one subscriber gets,
/// so a caller cannot take a fresh budget from each of its addresses. Thread-safe; memory is bounded by
/// `maxAddresses` (an address whose budget is full again is forgotten first).
final class AddressBudget: Sendable {
    private struct Bucket {
        var level: Double
        var updated: ContinuousClock.Instant
    }

    /// What one address may spend per hour; 0 means no limit.
    let perHour: Int
    let maxAddresses: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    init(perHour: Int, maxAddresses: Int = 65_536) {
        self.perHour = perHour
        self.maxAddresses = maxAddresses
    }

    /// Takes `amount` (at most one hour's budget) from the address's budget. Nil when there was enough and it was
    /// taken; otherwise nothing is taken and the answer is the whole seconds until there will be enough.
    func take(_ amount: Int, from address: String, now: ContinuousClock.Instant = .now) -> Int? {
        guard perHour > 0 else { return nil }
        let key = Self.key(address)
        let capacity = Double(perHour)
        let rate = capacity / 3600
        let cost = Double(min(max(amount, 0), perHour))
        return buckets.withLock { buckets in
            var bucket: Bucket
            if let known = buckets[key] {
                bucket = known
                bucket.level = min(capacity, bucket.level + Self.seconds(now - bucket.updated) * rate)
            } else {
                if buckets.count >= maxAddresses { Self.evict(&buckets, capacity: capacity, rate: rate, now: now) }
                bucket = Bucket(level: capacity, updated: now)
            }
            bucket.updated = now
            defer { buckets[key] = bucket }
            if bucket.level >= cost {
                bucket.level -= cost
                return nil
            }
            return max(1, Int(((cost - bucket.level) / rate).rounded(.up)))
        }
    }

    /// The addresses tracked now (tests check the bound).
    var trackedAddresses: Int { buckets.withLock { $0.count } }

    /// Forgets every address whose budget is full again (it holds no state); when none is, the one seen longest ago.
    private static func evict(
        _ buckets: inout [String: Bucket], capacity: Double, rate: Double, now: ContinuousClock.Instant
    ) {
        let before = buckets.count
        buckets = buckets.filter { $0.value.level + seconds(now - $0.value.updated) * rate < capacity }
        if buckets.count == before, let oldest = buckets.min(by: { $0.value.updated < $1.value.updated }) {
            buckets.removeValue(forKey: oldest.key)
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return max(0, Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
    }

    /// What an address is counted by: an IPv4 address itself (also when IPv4-mapped), an IPv6 address its /64.
    static func key(_ address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map {
            String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
        }
        return groups.joined(separator: ":") + "::/64"
    }
}
