/// Where libmicrohttpd keeps one request's head, to see what its C strings hide.
///
/// libmicrohttpd (0.9.75) parses the head in place: it writes a NUL over each line end (CR LF or LF) and over each
/// field's colon, and reports a value's length with `strlen`, so a value holding a NUL byte is reported cut short
/// at it (`ApplePass <token>\0GARBAGE` as `ApplePass <token>`). The fields still lie in the head in arrival order,
/// so each value must end right where a line end begins: one or two NULs, then the next field's name, and after
/// the last field the two line ends that close the head. Any other byte between them (what followed a NUL, or a
/// value moved elsewhere because it was folded over two lines) means the head is not what the fields say. A NUL
/// followed by a bare LF as the last bytes of a value leaves the same bytes as a CR LF and is not told apart.
struct MHDHeadLayout {
    /// One field as libmicrohttpd reports it: where its name and value start, and their lengths.
    struct Field {
        var name: UnsafeRawPointer
        var nameCount: Int
        var value: UnsafeRawPointer
        var valueCount: Int
    }

    /// Just past the HTTP version of the request line.
    let start: UnsafeRawPointer
    /// Just past the blank line that ends the head (request line start + libmicrohttpd's head size).
    let end: UnsafeRawPointer
    /// Where the next field's line end must begin; nil once a field did not fit.
    private var cursor: UnsafeRawPointer?

    init(start: UnsafeRawPointer, end: UnsafeRawPointer) {
        self.start = start
        self.end = end
        cursor = start
    }

    /// Takes the next field in arrival order.
    mutating func add(_ field: Field) {
        guard let at = cursor, isLineEnd(from: at, to: field.name) else {
            cursor = nil
            return
        }
        let colon = field.name + field.nameCount
        guard colon < end, colon.load(as: UInt8.self) == 0, colon < field.value,
            field.value + field.valueCount <= end
        else {
            cursor = nil
            return
        }
        var whitespace = colon + 1
        while whitespace < field.value {
            let byte = whitespace.load(as: UInt8.self)
            guard byte == 0x20 || byte == 0x09 else {
                cursor = nil
                return
            }
            whitespace += 1
        }
        cursor = field.value + field.valueCount
    }

    /// True when the fields taken exactly fill the head, with nothing after any value but its line end: after
    /// the last one, its line end and the blank line's.
    var isWhole: Bool {
        guard let cursor else { return false }
        let tail = end - cursor
        return tail >= 2 && tail <= 4 && allNUL(from: cursor, to: end)
    }

    /// One line end as libmicrohttpd leaves it: one (LF) or two (CR LF) NULs, and nothing else.
    private func isLineEnd(from: UnsafeRawPointer, to: UnsafeRawPointer) -> Bool {
        guard to > from, to <= end else { return false }
        let count = to - from
        return count <= 2 && allNUL(from: from, to: to)
    }

    private func allNUL(from: UnsafeRawPointer, to: UnsafeRawPointer) -> Bool {
        var byte = from
        while byte < to {
            guard byte.load(as: UInt8.self) == 0 else { return false }
            byte += 1
        }
        return true
    }
}
