import FuzzSupport

@main
enum FuzzHTTP {
    static func main() { FuzzDriver.run(fuzzHTTP) }
}

private func fuzzHTTP(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt { 0 }
