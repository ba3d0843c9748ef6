import Glibc

/// The fixed modification time of every entry PassMint writes: 2001-01-01 00:00:00.
///
/// Zip stores local (DOS) time and libzip converts `time_t` with `localtime`, so the `time_t` is computed with
/// `mktime` (local time too): the fields written are 2001-01-01 00:00:00 in every time zone, and the archive
/// bytes do not depend on the machine's `TZ`.
enum ArchiveClock {
    static func fixedModificationTime() -> time_t {
        var parts = tm()
        parts.tm_year = 2001 - 1900
        parts.tm_mon = 0
        parts.tm_mday = 1
        parts.tm_hour = 0
        parts.tm_min = 0
        parts.tm_sec = 0
        parts.tm_isdst = -1
        return mktime(&parts)
    }
}
