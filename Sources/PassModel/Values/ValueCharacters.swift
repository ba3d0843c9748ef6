/// Which characters a record value (a CSV field, a `--set` value, an update) may hold: anything but the C0
/// controls and DEL, tab and line breaks aside. A NUL or an escape is never data a pass shows. The one place
/// this rule lives.
public enum ValueCharacters {
    /// True for a code point (or byte) a value may not hold.
    public static func isForbiddenControl(_ code: UInt32) -> Bool {
        (code < 0x20 && code != 0x09 && code != 0x0A && code != 0x0D) || code == 0x7F
    }
}
