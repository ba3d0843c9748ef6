import PassModel
import Testing

@testable import PassMint

@Suite("BatchRecordResult: typed outcomes, worded only in the report line")
struct BatchRecordResultTests {
    @Test("a batch record's line: status, error worded from the typed problem, resumed and link only when set")
    func batchLine() throws {
        let failed = BatchRecordResult(line: 3, serialNumber: "A1", failed: .duplicateSerial("A1", firstLine: 2))
        #expect(
            String(decoding: JSONWriter.serialize(.object(failed.reportObject), pretty: false), as: UTF8.self)
                == #"{"error":"serialNumber 'A1' is already used by the record on line 2; every pass needs its own "#
                + #"serial number","file":null,"line":3,"serialNumber":"A1","status":"failed"}"#)
        let kept = BatchRecordResult(
            line: 4, serialNumber: "B2", file: "B2.pkpass", kind: .updated, resumed: true, link: "https://x/p/t")
        #expect(
            String(decoding: JSONWriter.serialize(.object(kept.reportObject), pretty: false), as: UTF8.self)
                == #"{"error":null,"file":"B2.pkpass","line":4,"link":"https://x/p/t","resumed":true,"#
                + #""serialNumber":"B2","status":"updated"}"#)
    }

    @Test(
        "a record fails for the machine only when issuing it failed for the machine; encoding problems are told apart")
    func problemKinds() {
        let invalid = CSVRecordProblem.invalidUTF8(CSVFieldName(index: 1, name: "b"), byte: 0xE9, offset: 3)
        #expect(BatchRecordProblem.unreadable(invalid).isEncoding)
        #expect(!BatchRecordProblem.unreadable(.tooManyFields(limit: 2)).isEncoding)
        #expect(BatchRecordProblem.notIssued(.output(path: "a.pkpass", .folderMissing("out"))).isEnvironment)
        #expect(!BatchRecordProblem.notIssued(.invalidSerialNumber(file: "a.csv", serial: "a b")).isEnvironment)
        #expect(!BatchRecordProblem.invalidSerial("a b").isEnvironment)
    }
}
