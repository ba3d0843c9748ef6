import Foundation
import Testing

@testable import PassSigning

@Suite("PrivateKey")
struct PrivateKeyTests {
    @Test("a key matches its own certificate and no other")
    func matches() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let key = try PrivateKey.load(path: paths.key, password: nil)
            #expect(key.keyDescription == "RSA 2048")
            #expect(key.matches(try Certificate.load(path: paths.certificate)))
            #expect(!key.matches(try Certificate.load(path: paths.wwdr)))
        }
    }

    @Test("encrypted keys: right password opens, wrong or missing password says so")
    func encrypted() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let encrypted = directory + "/encrypted.pem"
            let result = try TestSupport.openssl(
                ["pkey", "-in", paths.key, "-aes256", "-passout", "pass:s3cret", "-out", encrypted])
            try #require(result.status == 0, "\(result.stderr)")
            let key = try PrivateKey.load(path: encrypted, password: "s3cret")
            #expect(key.matches(try Certificate.load(path: paths.certificate)))
            #expect(throws: SigningError.wrongPassword(path: encrypted)) {
                try PrivateKey.load(path: encrypted, password: "wrong")
            }
            #expect(throws: SigningError.keyPasswordRequired(path: encrypted)) {
                try PrivateKey.load(path: encrypted, password: nil)
            }
            let error = #expect(throws: SigningError.self) { try PrivateKey.load(path: encrypted, password: "wrong") }
            #expect(error?.description.contains("s3cret") == false)
            #expect(error?.description.contains("wrong") == false)
        }
    }

    @Test("DER PKCS#8 keys load too")
    func der() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let derPath = directory + "/key.der"
            let result = try TestSupport.openssl(["pkey", "-in", paths.key, "-outform", "DER", "-out", derPath])
            try #require(result.status == 0, "\(result.stderr)")
            let key = try PrivateKey.load(path: derPath, password: nil)
            #expect(key.matches(try Certificate.load(path: paths.certificate)))
        }
    }

    @Test("a certificate is not a key")
    func notAKey() throws {
        try withTemporaryDirectory { directory in
            let paths = try TestSupport.devChain(in: directory)
            let error = #expect(throws: SigningError.self) {
                try PrivateKey.load(path: paths.certificate, password: nil)
            }
            guard case .invalidPrivateKey(let path, _)? = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
            #expect(path == paths.certificate)
        }
    }
}
