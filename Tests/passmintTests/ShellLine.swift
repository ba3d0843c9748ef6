import Foundation

/// Where a shell comment starts on one line: a `#` outside quotes at the start of a word.
enum ShellLine {
    /// The code and the comment's text (after `#` and spaces), nil when there is none.
    static func split(_ line: String) -> (code: String, comment: String?) {
        var inSingle = false
        var inDouble = false
        var escaped = false
        var previous: Character? = nil
        for index in line.indices {
            let character = line[index]
            defer { previous = character }
            if escaped {
                escaped = false
                continue
            }
            switch character {
            case "\\" where !inSingle: escaped = true
            case "'" where !inDouble: inSingle.toggle()
            case "\"" where !inSingle: inDouble.toggle()
            case "#" where !inSingle && !inDouble:
                let wordStart = previous.map { $0.isWhitespace || ";&|()<>".contains($0) } ?? true
                if wordStart {
                    let comment = line[line.index(after: index)...].trimmingCharacters(in: .whitespaces)
                    return (String(line[..<index]), comment)
                }
            default: break
            }
        }
        return (line, nil)
    }
}
