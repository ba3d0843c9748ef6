import PassModel

/// What a poster layout needs: a poster event ticket its semantic tags (from `PassValidator`'s
/// `pass.poster-fallback` findings, one row per tag), a poster generic pass its artwork, a logo and a legacy
/// fallback for older phones (`pass.poster-no-fallback`).
enum PosterRule {
    static let tagExamples: [String: String] = [
        "eventName": "Summer Nights Tour", "venueName": "Mint Arena", "venueRegionName": "Berlin, Germany",
        "venueRoom": "Main Hall", "homeTeamAbbreviation": "SFG", "awayTeamAbbreviation": "LAD",
    ]

    static func check(_ c: LintContext, into rows: inout [LintRow]) {
        let problems = PassValidator.validate(c.source.passJSON)
        for problem in problems
        where problem.code == PassProblemCode.posterFallback && problem.path.hasPrefix("semantics.") {
            let tag = String(problem.path.dropFirst("semantics.".count))
            let example = tag == "performerNames" ? "[\"The Mint Conditions\"]" : "\"\(tagExamples[tag] ?? "…")\""
            rows.append(
                LintRow(
                    LintCode.posterIncomplete, path: problem.path, before: LintRow.missing,
                    after: "\"semantics\": {\"\(tag)\": \(example)}",
                    change:
                        "iOS 18+ shows the full-bleed poster ticket instead of silently falling back to the classic layout"
                ))
        }
        guard c.pass.posterGeneric != nil else { return }
        if !c.images.has("artwork") {
            rows.append(
                LintRow(
                    LintCode.posterIncomplete, path: "artwork.png", before: LintRow.missing,
                    after: "artwork.png 358×448, artwork@2x.png 716×896, artwork@3x.png 1074×1344",
                    change: "The poster shows your artwork instead of a flat colour"))
        }
        if !c.images.has("primaryLogo"), !c.images.has("logo") {
            rows.append(
                LintRow(
                    LintCode.posterIncomplete, path: "primaryLogo.png", before: LintRow.missing,
                    after: "primaryLogo.png 30 pt tall, 30-126 pt wide (@2x, @3x)",
                    change: "Your logo appears at the top of the poster"))
        }
        if problems.contains(where: { $0.code == PassProblemCode.posterNoFallback }) {
            rows.append(
                LintRow(
                    LintCode.posterIncomplete, path: "generic", before: LintRow.missing,
                    after:
                        "\"generic\": {…the posterGeneric fields…}, or \"automaticallyGenerateCompatiblePass\": true in tooling.json",
                    change: "iPhones on iOS 26 and earlier can add the pass instead of refusing it"))
        }
    }
}
