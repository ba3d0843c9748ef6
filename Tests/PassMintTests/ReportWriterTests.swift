import Foundation
import PassModel
import Testing

@testable import PassMint

@Suite("ReportWriter: the one JSON Lines writer of the long jobs")
struct ReportWriterTests {
    @Test("the slash-escaping style writes what JSONSerialization wrote for templates publish, byte for byte")
    func slashesEscaped() throws {
        let dir = try TempDir()
        let report = try ReportWriter(path: dir.path("p.jsonl"), style: .slashesEscaped)
        let line: [String: String] = [
            "serialNumber": "S-1", "from": "/srv/templates/event.pkpasstemplate", "to": "passmint-template:event@ab12",
            "status": "moved",
        ]
        try report.append(objects: [line.mapValues { JSONValue.string($0) }])
        try report.finish()
        let expected = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) + Data([0x0A])
        let written = try Data(contentsOf: URL(fileURLWithPath: dir.path("p.jsonl")))
        #expect(written == expected, "\(String(decoding: written, as: UTF8.self))")
    }
}
