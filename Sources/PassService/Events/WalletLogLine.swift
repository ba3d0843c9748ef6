/// The passes a line of Wallet's own log (`POST /v1/log`) names. Wallet writes lines such as
/// `Register task (for device D, pass type P, serial number S; with web service url U) encountered error: …` and
/// `Web service error for P (U): … /v1/passes/P/S …`; a line names a pass when it carries both its pass type and
/// its serial number, in words or in a path.
enum WalletLogLine {
    /// A pass a line names, and the device when the line names one.
    struct Mention: Equatable {
        var passType: String
        var serial: String
        var device: String?
    }

    /// Every distinct pass `line` may name (the first device named goes with each); at most a few candidates.
    static func mentions(in line: String) -> [Mention] {
        var found: [Mention] = []
        let device = firstMatch(line, #/(?:for device |/v1/devices/)([A-Za-z0-9._-]{1,128})/#)
        func add(_ passType: String, _ serial: String) {
            let mention = Mention(passType: passType, serial: serial, device: device)
            if !found.contains(mention) { found.append(mention) }
        }
        for match in line.matches(
            of: #/(?:/v1/passes/|/registrations/)(pass\.[A-Za-z0-9._-]{1,200})/([^/\s?;,)"']{1,200})/#)
        {
            add(String(match.output.1), String(match.output.2))
        }
        // "serial number S" with the pass type written elsewhere in the line: every `pass.…` word is a candidate
        // (a web service host may start with "pass." too); the store keeps only a pass that exists.
        if let serial = firstMatch(line, #/serial(?: number|Number)[ :=]+["']?([^\s;,)"']{1,200})/#) {
            for match in line.matches(of: #/(pass\.[A-Za-z0-9._-]{1,200})/#).prefix(4) {
                add(String(match.output.1), serial)
            }
        }
        return found
    }

    private static func firstMatch(_ line: String, _ pattern: Regex<(Substring, Substring)>) -> String? {
        line.firstMatch(of: pattern).map { String($0.output.1) }
    }
}
