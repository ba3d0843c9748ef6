import Foundation
@_exported import PassMintTestSupport
import Testing

@testable import PassSigning

/// Helpers shared by the PassSigning tests.
enum TestSupport {

    /// Two in-memory dev chains, generated once per test run (RSA key generation is the slow part).
    static let chains: [DevCertificates.Chain] = (0..<2).map { _ in
        try! DevCertificates.makeChain(
            passTypeIdentifier: "pass.test.passmint", teamIdentifier: "TEAMTEST01",
            validDays: 30)
    }

    /// A dev chain (the first shared one, or the second with `other`) written into `directory`/dev.
    static func devChain(in directory: String, other: Bool = false) throws -> DevCertificatePaths {
        try DevCertificates.write(chains[other ? 1 : 0], to: directory + "/dev")
    }

    struct ProcessResult {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs an executable (no shell) and collects its output (the shared runner).
    static func run(_ executable: String, _ arguments: [String]) throws -> ProcessResult {
        let result = try CLI.run(executable, arguments)
        return ProcessResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// Runs the openssl command-line tool.
    static func openssl(_ arguments: [String]) throws -> ProcessResult {
        try run("/usr/bin/openssl", arguments)
    }

    /// Bytes of one entry of a zip file, via `unzip -p`.
    static func unzipEntry(_ zip: String, _ entry: String) throws -> [UInt8] {
        let result = try CLI.run("/usr/bin/unzip", ["-p", zip, entry])
        guard result.status == 0 else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "\(zip): \(entry)"])
        }
        return result.output
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// POSIX permission bits of a file or folder.
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
