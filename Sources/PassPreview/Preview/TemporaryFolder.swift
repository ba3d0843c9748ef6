import Foundation

/// A private folder under the system's temporary directory, removed by `remove()` (callers `defer` it so it
/// goes on every exit, error or not).
struct TemporaryFolder {
    let path: String

    init() throws(PreviewError) {
        let base = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/passmint-preview-XXXXXX"
        var template = Array(base.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .environment(.temporaryFolder(base: base))
        }
        path = String(cString: made)
    }

    func write(_ name: String, _ text: String) throws(PreviewError) {
        guard FileManager.default.createFile(atPath: "\(path)/\(name)", contents: Data(text.utf8)) else {
            throw .output(file: "\(path)/\(name)", .cannotCreateFile)
        }
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
