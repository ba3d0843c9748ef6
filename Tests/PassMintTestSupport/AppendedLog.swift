import Foundation

/// A JSON-lines log that a live stand-in appends to while a test reads it.
public enum AppendedLog {
    /// The complete lines of the log at `path`: a last line without its newline is still being written and is
    /// left for the next read.
    public static func completeLines(ofFile path: String) throws -> [Substring] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        if !text.hasSuffix("\n"), !lines.isEmpty { lines.removeLast() }
        return lines
    }

    /// The complete lines of the log at `path`, each parsed as a JSON object.
    public static func records(ofFile path: String) throws -> [[String: Any]] {
        try completeLines(ofFile: path).compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
