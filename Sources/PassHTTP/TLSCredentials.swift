internal import CMicroHTTPD
import Foundation
import PassSigning

/// The server certificate (chain) and private key for serving HTTPS with libmicrohttpd's own TLS, for a
/// deployment without a reverse proxy.
///
/// Both files are read once, checked with OpenSSL (PEM, parseable, the key belongs to the first certificate) so
/// that a mistake is reported in words before anything listens, and kept in memory for the daemon. The key's
/// bytes never appear in a description, a dump or an error.
package struct TLSCredentials: Sendable, CustomStringConvertible, CustomReflectable {
    package let certificatePath: String
    package let keyPath: String
    /// PEM text with a NUL terminator, as libmicrohttpd takes it.
    let certificatePEM: [CChar]
    let keyPEM: [CChar]

    /// Whether the libmicrohttpd in use can serve TLS at all.
    package static var isAvailable: Bool { pm_mhd_supports_tls() != 0 }

    /// Reads and checks the two PEM files.
    /// - Throws: `HTTPServerError.tlsUnavailable` when libmicrohttpd has no TLS, `.tlsFile` naming the file that
    ///   cannot be read or is not a PEM certificate / unencrypted key, `.tlsKeyMismatch` when the key is not the
    ///   certificate's.
    package static func load(certificatePath: String, keyPath: String) throws(HTTPServerError) -> TLSCredentials {
        guard isAvailable else { throw .tlsUnavailable }
        let certificateBytes = try read(certificatePath, kind: .certificate)
        let keyBytes = try read(keyPath, kind: .privateKey)
        let certificate: Certificate
        do {
            certificate = try Certificate(pem: certificateBytes)
        } catch {
            throw .tlsFile(path: certificatePath, problem: .invalid(kind: .certificate, error))
        }
        let key: PrivateKey
        do {
            key = try PrivateKey(pem: keyBytes, password: nil)
        } catch .keyPasswordRequired {
            throw .tlsFile(path: keyPath, problem: .encryptedKey)
        } catch {
            throw .tlsFile(path: keyPath, problem: .invalid(kind: .privateKey, error))
        }
        guard key.matches(certificate) else {
            throw .tlsKeyMismatch(certificatePath: certificatePath, keyPath: keyPath)
        }
        return TLSCredentials(
            certificatePath: certificatePath, keyPath: keyPath,
            certificatePEM: certificateBytes.map { CChar(bitPattern: $0) } + [0],
            keyPEM: keyBytes.map { CChar(bitPattern: $0) } + [0])
    }

    /// A warning when the key file is readable by its group or by others (the same rule as the signing key's);
    /// nil when only its owner can read it.
    package var keyFileWarning: String? {
        guard let mode = (try? FileManager.default.attributesOfItem(atPath: keyPath))?[.posixPermissions] as? Int,
            mode & 0o077 != 0
        else { return nil }
        return "the TLS key \(keyPath) holds a private key and is readable by "
            + (mode & 0o007 != 0 ? "others" : "its group")
            + " (mode \(String(mode & 0o777, radix: 8))); restrict it with chmod 600 \(keyPath)"
    }

    package var description: String { "TLS certificate \(certificatePath), key \(keyPath)" }

    /// Only the paths: the key stays out of `dump` and debugger output.
    package var customMirror: Mirror {
        Mirror(self, children: ["certificatePath": certificatePath, "keyPath": keyPath])
    }

    private static func read(_ path: String, kind: TLSFileProblem.Kind) throws(HTTPServerError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw .tlsFile(path: path, problem: .unreadable(kind: kind, errno: errno))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw .tlsFile(path: path, problem: .unreadable(kind: kind, errno: errno))
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        guard String(decoding: bytes, as: UTF8.self).contains("-----BEGIN ") else {
            throw .tlsFile(path: path, problem: .notPEM(kind: kind))
        }
        return bytes
    }
}
