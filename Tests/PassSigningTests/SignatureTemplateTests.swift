import Foundation
import Synchronization
import Testing

@testable import PassSigning

@Suite("SignatureTemplate")
struct SignatureTemplateTests {
    @Test("the template path writes exactly the bytes OpenSSL's PKCS7_sign writes for the same content and second")
    func sameBytesAsOpenSSL() throws {
        try withDevSigner { identity, signer in
            let template = try #require(signer.template, "the template could not be prepared")
            let contents: [[UInt8]] = [
                [], Array("{}".utf8), PassSignerTests.manifest, Array(repeating: 0x61, count: 100_000),
            ]
            let times = [
                Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_800_000_000.9),
                Date(timeIntervalSince1970: 2_524_607_999),  // 2049-12-31 23:59:59, the last UTCTime second
            ]
            for content in contents {
                for time in times {
                    let fast = try #require(try template.sign(content, at: time))
                    let reference = try signer.signWithOpenSSL(content, at: time)
                    #expect(fast == reference, "\(content.count) bytes at \(time)")
                }
            }
        }
    }

    @Test("from 2050 on (GeneralizedTime, another length) signing falls back to OpenSSL and still carries the time")
    func fallsBackAfter2049() throws {
        try withDevSigner { identity, signer in
            let time = Date(timeIntervalSince1970: 2_524_608_000)  // 2050-01-01 00:00:00
            #expect(try signer.template?.sign(PassSignerTests.manifest, at: time) == nil)
            let signature = try signer.sign(PassSignerTests.manifest, at: time)
            #expect(signature == (try signer.signWithOpenSSL(PassSignerTests.manifest, at: time)))
            #expect(SignatureTemplate.utcTime(time) == nil)
            let utc = SignatureTemplate.utcTime(Date(timeIntervalSince1970: 1_800_000_000))
            #expect(utc.map { String(decoding: $0, as: UTF8.self) } == "270115080000Z")
        }
    }

    @Test("many threads signing at once each get the bytes OpenSSL writes for their own content")
    func concurrentSignatures() throws {
        try withDevSigner { identity, signer in
            let time = Date(timeIntervalSince1970: 1_800_000_000)
            let contents = (0..<48).map { Array("{\"pass.json\" : \"\($0)\"}".utf8) }
            let expected = try contents.map { try signer.signWithOpenSSL($0, at: time) }
            let results = Mutex<[[UInt8]?]>(Array(repeating: nil, count: contents.count))
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for index in stride(from: worker, to: contents.count, by: 8) {
                    let signature = try? signer.sign(contents[index], at: time)
                    results.withLock { $0[index] = signature }
                }
            }
            let made = results.withLock { $0 }
            for index in contents.indices {
                #expect(made[index] == expected[index], "content \(index)")
            }
        }
    }

    /// A signer for a fresh development chain, removed afterwards.
    private func withDevSigner(_ body: (SigningIdentity, PassSigner) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let identity = try SigningIdentity.load(
                certificatePath: paths.certificate, keyPath: paths.key, wwdrPath: paths.wwdr, keyPassword: nil)
            try body(identity, PassSigner(identity: identity))
        }
    }
}
