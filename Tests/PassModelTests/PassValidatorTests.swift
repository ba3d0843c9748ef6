import Testing

@testable import PassModel

@Suite("PassValidator")
struct PassValidatorTests {
    @Test("the sample passes the rules are checked against are clean")
    func samplesAreClean() {
        #expect(PassValidator.validate(Sample.storeCard).isEmpty)
        #expect(PassValidator.validate(Sample.eventTicket).isEmpty)
        #expect(PassValidator.validate(Sample.boardingPass).isEmpty)
        #expect(PassValidator.validate(Sample.posterGeneric).isEmpty)
    }

    @Test(
        "each rule fails with its code, path and severity, and a nearby valid pass does not",
        arguments: ValidatorRule.all)
    func rule(_ rule: ValidatorRule) {
        let failing = rule.problems(rule.failing, files: rule.failingFiles)
        let hits = findings(failing, rule.code, rule.path)
        #expect(hits.count == 1, "expected one \(rule.code) at \(rule.path), got: \(failing)")
        if let hit = hits.first {
            #expect(hit.severity == rule.severity, "\(hit)")
            for word in rule.mentions { #expect(hit.message.contains(word), "\(hit.message) lacks \(word)") }
            #expect(hit.message.count > 30, "message too terse: \(hit.message)")
        }
        let passing = rule.problems(rule.passing, files: rule.passingFiles)
        #expect(findings(passing, rule.code, rule.path).isEmpty, "\(passing)")
        #expect(!passing.contains { $0.isError }, "\(passing)")
    }

    @Test("passes Wallet installs are valid: textAlignment on every field (py-pkpass, wallet-py3k), appLaunchURL alone")
    func whatWalletInstalls() {
        var j = Sample.storeCard
        for path in ["storeCard.primaryFields[0]", "storeCard.secondaryFields[0]", "storeCard.backFields[0]"] {
            j.set(path + ".textAlignment", "PKTextAlignmentLeft")
        }
        j.set("appLaunchURL", "myapp://pass/1")
        let problems = PassValidator.validate(j)
        #expect(PassValidator.isValid(j), "\(problems)")
        #expect(problems.filter { $0.severity == .warning }.count == 3, "\(problems)")
    }

    @Test("a top level that is not an object is one error at the empty path")
    func notAnObject() {
        let problems = PassValidator.validate(["storeCard"])
        #expect(problems.count == 1)
        #expect(problems.first?.code == PassProblemCode.invalidValue)
        #expect(problems.first?.path == "")
        #expect(!PassValidator.isValid("x"))
        #expect(PassValidator.isValid(Sample.storeCard))
    }

    @Test("only the codes of the public contract are used")
    func codes() {
        let contract: Set<ProblemCode> = [
            PassProblemCode.noStyle, PassProblemCode.missingKey, PassProblemCode.invalidValue,
            PassProblemCode.duplicateFieldKey,
            PassProblemCode.tooManyFields, PassProblemCode.unknownKey, PassProblemCode.posterFallback,
            PassProblemCode.posterNoFallback, PassProblemCode.posterFallbackStyle, PassProblemCode.groupNotShown,
            PassProblemCode.unconfirmedKey, PassProblemCode.tooManyActions, PassProblemCode.duplicateActionIdentifier,
            PassProblemCode.actionsNotShown, PassProblemCode.barcodeMessage, PassProblemCode.posterNFC,
            PassProblemCode.posterNFCAuthentication, PassProblemCode.semanticBoardingFallback,
            PassProblemCode.semanticsRecommended, PassProblemCode.numberFormatConflict,
            PassProblemCode.missingPosterArt, PassProblemCode.missingImageScale,
        ]
        #expect(
            contract == [
                "pass.no-style", "pass.missing-key", "pass.invalid-value", "pass.duplicate-field-key",
                "pass.too-many-fields", "pass.unknown-key", "pass.poster-fallback",
                "pass.poster-no-fallback", "pass.poster-fallback-style", "pass.group-not-shown",
                "pass.unconfirmed-key", "pass.too-many-actions", "pass.duplicate-action-identifier",
                "pass.featured-actions-not-shown", "pass.barcode-message", "pass.poster-nfc",
                "pass.poster-nfc-authentication", "pass.semantic-boarding-fallback", "pass.semantics-recommended",
                "pass.number-format-conflict", "image.missing-poster-art", "image.missing-scale",
            ])
        for rule in ValidatorRule.all {
            for p in rule.problems(rule.failing, files: rule.failingFiles) {
                #expect(contract.contains(p.code), "\(p)")
            }
        }
    }

    @Test("field keys are unique across styles and groups; every later duplicate is reported")
    func duplicates() {
        var json = Sample.storeCard
        json.set("storeCard.headerFields[0]", ["key": "balance", "value": "1"])
        json.set("storeCard.backFields[1]", ["key": "balance", "value": "2"])
        let dups = PassValidator.validate(json).filter { $0.code == PassProblemCode.duplicateFieldKey }
        #expect(dups.map(\.path) == ["storeCard.primaryFields[0].key", "storeCard.backFields[1].key"])
        #expect(dups.allSatisfy { $0.message.contains("storeCard.headerFields[0]") })
    }

    @Test("Problem describes itself with severity, code, path and message")
    func problemDescription() {
        let p = Problem(.warning, "pass.unknown-key", "kept as is", path: "x")
        #expect(p.description == "warning pass.unknown-key at x: kept as is")
        #expect(Problem(.error, "pass.no-style", "m", path: "").description == "error pass.no-style: m")
    }
}
