import Glibc
import PassModel

/// Fresh per-pass secrets for the web service.
public enum AuthenticationToken {
    /// 32 random bytes from the system's CSPRNG (one `getentropy` call) as 64 lowercase hex characters.
    public static func generate() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        let filled = bytes.withUnsafeMutableBytes { getentropy($0.baseAddress, $0.count) == 0 ? $0.count : 0 }
        if filled != bytes.count {
            // getentropy fills up to 256 bytes in one call; should it ever fail, the standard generator does.
            var rng = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &rng) }
        }
        return Hex.lowercase(bytes)
    }
}
