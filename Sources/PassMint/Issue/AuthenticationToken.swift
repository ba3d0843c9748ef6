/// Fresh per-pass secrets for the web service.
public enum AuthenticationToken {
    /// 32 random bytes from the system's CSPRNG as 64 lowercase hex characters.
    public static func generate() -> String {
        var rng = SystemRandomNumberGenerator()
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for _ in 0..<32 {
            let byte = UInt8.random(in: 0...255, using: &rng)
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
