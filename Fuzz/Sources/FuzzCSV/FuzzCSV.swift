import FuzzSupport
import PassMint

/// Input: one option byte, then the CSV file. The option byte picks the delimiter (or detection), the encoding
/// (or detection) and, when its top bit is set, limits small enough that short inputs reach the overflow paths.
@main
enum FuzzCSV {
    static func main() { FuzzDriver.run(fuzzCSV) }
}

/// `CSVReader` reads a path: each input is written here first.
private let scratch = ScratchDirectory(name: "csv")
private let encodings: [CSVEncoding?] = [nil] + CSVEncoding.allCases.map(Optional.some)
private let delimiters: [CSVDelimiter?] = [nil] + CSVDelimiter.allCases.map(Optional.some)

private func fuzzCSV(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let (option, file) = FuzzInput(start, count).choice(of: 256)
    let format = CSVFormat(
        delimiter: delimiters[option % delimiters.count],
        encoding: encodings[(option / delimiters.count) % encodings.count],
        limits: option & 0x80 != 0 ? CSVLimits(maxFieldBytes: 16, maxRecordBytes: 48, maxFields: 4) : CSVLimits())
    let path = scratch.write("input.csv", file.bytes)
    guard let reader = try? CSVReader(path: path, format: format) else { return 0 }
    var lastLine = 0
    while let record = try? reader.nextRecord() {
        // Every record starts on a later line than the one before (fields or a problem is one enum, so no check).
        require(record.line > lastLine, "record line \(record.line) after line \(lastLine)")
        lastLine = record.line
    }
    return 0
}
