import Foundation
import Testing

@testable import PassSigning

/// PassMint's one SHA-256: in one call and streamed in chunks, against the FIPS 180-2 test vectors.
@Suite("SHA256Digest")
struct SHA256DigestTests {
    static let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    static let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    @Test("one call: the FIPS 180-2 vectors")
    func oneCall() {
        #expect(SHA256Digest.hex(Array("abc".utf8)) == Self.abc)
        #expect(SHA256Digest.hex([]) == Self.empty)
    }

    @Test("streamed in chunks of any size gives the digest of the whole input")
    func streamed() throws {
        let bytes = (0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for chunk in [1, 7, 4096, 100_003] {
            var digest = try SHA256Digest()
            var start = 0
            while start < bytes.count {
                try digest.update(Data(bytes[start..<min(start + chunk, bytes.count)]))
                start += chunk
            }
            #expect(try digest.finish() == SHA256Digest.hex(bytes), "chunks of \(chunk)")
        }
        var empty = try SHA256Digest()
        try empty.update(Data())
        #expect(try empty.finish() == Self.empty)
    }
}
