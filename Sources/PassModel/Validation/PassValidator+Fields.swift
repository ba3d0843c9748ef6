extension Checker {
    /// - Parameter reusing: fields checked before whose findings stand (their dictionaries are unchanged and no
    ///   field key changed), taken instead of checking each again; for one whose run has `valueChecks`, only its
    ///   value is checked again. Each field checked is recorded in `fieldRuns` when that is set.
    mutating func checkStyles(_ root: [String: JSONValue], reusing: [FieldSite: FieldRun] = [:]) {
        let present = PassStyle.allCases.filter { root[$0.rawValue] != nil }
        let legacy = present.filter(\.isLegacy)
        let hasPoster = present.contains(.posterGeneric)
        if present.isEmpty {
            let names = PassStyle.legacy.map(\.rawValue).joined(separator: ", ")
            error(
                PassProblemCode.noStyle, "",
                "pass.json has no style key; add exactly one of \(names) holding the pass's field groups (iOS 27's posterGeneric may stand beside it)"
            )
        }
        // Two legacy styles are refused whether or not posterGeneric stands beside them.
        for extra in legacy.dropFirst() {
            let beside = hasPoster ? " besides posterGeneric" : ""
            error(
                PassProblemCode.noStyle, extra.rawValue,
                "pass.json has \(legacy.count) style keys\(beside) (\(legacy.map(\.rawValue).joined(separator: ", "))); a pass has exactly one — keep \(legacy[0].rawValue) or \(extra.rawValue), remove the other"
            )
        }
        checkPosterFallback(present)
        // Apple's builder fills "every field with that key in every style dictionary": a poster generic pass and
        // its fallback share keys by design, so keys are unique per dictionary there, per pass otherwise.
        var seen: [String: String] = [:]
        for style in PassStyle.displayOrder(present) {
            let base = style.rawValue
            guard let dict = object(root[base]!, at: base, what: "a dictionary { … } holding the field groups") else {
                continue
            }
            if hasPoster { seen = [:] }
            let scope =
                hasPoster
                ? "within \(base) (posterGeneric and its fallback may share keys)"
                : "across the whole pass (all styles and groups)"
            checkTransitType(dict, style)
            for group in PassFieldGroup.allCases {
                guard let items = array(dict, group.rawValue, in: base, of: "field dictionaries") else { continue }
                for (i, item) in items.enumerated() {
                    let site = FieldSite(style: style, group: group, index: i)
                    if let reused = reusing[site] {
                        if let checks = reused.valueChecks {
                            checkFieldValue(
                                item, run: reused, checks: checks,
                                path: JSONPath.index(JSONPath.member(base, group.rawValue), i))
                        } else {
                            problems += reused.problems
                        }
                        seen = reused.seenAfter
                        continue
                    }
                    let before = problems.count
                    let checks = checkField(
                        item, style: style, group: group,
                        path: JSONPath.index(JSONPath.member(base, group.rawValue), i),
                        seen: &seen, unique: scope)
                    let order = fieldRuns?.count ?? 0
                    fieldRuns?[site] = FieldRun(
                        problems: Array(problems[before...]), seenAfter: seen, valueChecks: checks,
                        span: before..<problems.count, order: order)
                }
            }
            checkGroupsShown(dict, style)
            checkFieldCounts(dict, style, root: root)
            unknownKeys(dict, known: PassStructure.knownKeys, in: base)
        }
    }

    mutating func checkTransitType(_ dict: [String: JSONValue], _ style: PassStyle) {
        let path = JSONPath.member(style.rawValue, "transitType")
        if style == .boardingPass {
            if dict["transitType"] == nil {
                invalid(path, "boardingPass has no transitType; add \"transitType\": one of \(TransitType.knownList)")
            } else {
                _ = enumValue(dict, "transitType", in: style.rawValue, as: TransitType.self)
            }
        } else if dict["transitType"] != nil {
            // Wallet ignores a key a style does not use; the pass installs.
            invalid(
                path, "transitType only applies to boardingPass; Wallet ignores it in \(style.rawValue) — remove it",
                severity: .warning)
        }
    }

    /// - Returns: where, among the problems it added, those that read the field's value begin and end (see
    ///   `FieldRun`); nil when the item is not a dictionary.
    @discardableResult
    mutating func checkField(
        _ item: JSONValue, style: PassStyle, group: PassFieldGroup, path: String,
        seen: inout [String: String], unique scope: String
    ) -> FieldRun.ValueChecks? {
        let start = problems.count
        guard let f = object(item, at: path, what: "a field dictionary {\"key\": …, \"value\": …}") else { return nil }
        var keyPath: String { JSONPath.member(path, "key") }
        var fieldKey: String?
        if f["key"] == nil {
            error(
                PassProblemCode.missingKey, keyPath,
                "field at \(path) has no \"key\"; add a \"key\" that is unique across the whole pass, e.g. \"points\"")
        } else if let key = string(f, "key", in: path) {
            fieldKey = key
            if key.isEmpty {
                invalid(keyPath, "field key is empty; write a key unique across the whole pass, e.g. \"points\"")
            } else if let first = seen[key] {
                error(
                    PassProblemCode.duplicateFieldKey, keyPath,
                    "field key \"\(key)\" is already used at \(first); keys must be unique \(scope) — rename one of them"
                )
            } else {
                seen[key] = path
            }
        }
        // Named in messages only, so built only when one is written.
        var name: String { fieldKey.map { "field \"\($0)\"" } ?? "field at \(path)" }
        let value = f["value"]
        switch value {
        case nil:
            error(
                PassProblemCode.missingKey, JSONPath.member(path, "value"),
                "\(name) has no \"value\"; add the text, number or ISO 8601 date to show")
        case .string?, .integer?, .double?:
            break
        case let v?:
            wrongType(JSONPath.member(path, "value"), v, expected: "a string, a number or an ISO 8601 date string")
        }
        _ = string(f, "label", in: path)
        _ = string(f, "changeMessage", in: path)
        checkAttributedValue(f, path)
        checkTextAlignment(f, group: group, path: path)
        checkDateOptions(f, name: name, path: path)
        let dateValue = problems.count
        checkDateValue(f, value: value, name: name, path: path)
        let afterDateValue = problems.count
        checkNumberOptions(f, name: name, path: path)
        let numberValue = problems.count
        checkNumberValue(f, value: value, name: name, path: path)
        let afterNumberValue = problems.count
        checkRow(f, style: style, group: group, path: path)
        checkDataDetectors(f, group: group, path: path)
        if let s = f["semantics"],
            let tags = object(s, at: JSONPath.member(path, "semantics"), what: "a dictionary { … } of semantic tags")
        {
            checkSemanticTags(tags, at: JSONPath.member(path, "semantics"))
        }
        unknownKeys(f, known: PassField.knownKeys, in: path)
        return FieldRun.ValueChecks(
            date: (dateValue - start)..<(afterDateValue - start),
            number: (numberValue - start)..<(afterNumberValue - start))
    }

    /// The checks of a pass field that read its value, with the findings of a run of `checkField` on the same
    /// field with another value for the rest: what `checkField` finds for the field as it is now.
    mutating func checkFieldValue(
        _ item: JSONValue, run: FieldRun, checks: FieldRun.ValueChecks, path: @autoclosure () -> String
    ) {
        let f = item.objectValue ?? [:]
        let value = f["value"]
        var name: String { f["key"]?.stringValue.map { "field \"\($0)\"" } ?? "field at \(path())" }
        problems += run.problems[..<checks.date.lowerBound]
        checkDateValue(f, value: value, name: name, path: path())
        problems += run.problems[checks.date.upperBound..<checks.number.lowerBound]
        checkNumberValue(f, value: value, name: name, path: path())
        problems += run.problems[checks.number.upperBound...]
    }

    mutating func checkAttributedValue(_ f: [String: JSONValue], _ path: String) {
        guard let v = f["attributedValue"] else { return }
        let p = JSONPath.member(path, "attributedValue")
        switch v {
        case .integer, .double: return
        case .string(let s):
            var rest = Substring(s)
            while let open = rest.firstIndex(of: "<") {
                let tail = rest[rest.index(after: open)...]
                let tag = tail.prefix { $0 != ">" && $0 != " " }.lowercased()
                if tag != "a" && tag != "/a" {
                    invalid(
                        p,
                        "attributedValue contains <\(tag)>; the only markup Wallet allows is <a href=\"…\">…</a> — remove the other tags",
                        severity: .warning)
                    return
                }
                rest = tail
            }
        default:
            wrongType(p, v, expected: "a string (optionally with <a href=\"…\"> links) or a number")
        }
    }

    mutating func checkTextAlignment(_ f: [String: JSONValue], group: PassFieldGroup, path: String) {
        guard f["textAlignment"] != nil else { return }
        guard enumValue(f, "textAlignment", in: path, as: TextAlignment.self) != nil else { return }
        if group == .primaryFields || group == .backFields {
            // Apple's docs disallow it here, yet Wallet installs such passes and ignores the key (py-pkpass and
            // wallet-py3k put it on every field by default): a warning, not a refusal.
            invalid(
                JSONPath.member(path, "textAlignment"),
                "textAlignment has no effect on \(group.rawValue): Wallet aligns these fields itself and ignores it; remove it",
                severity: .warning)
        }
    }

    mutating func checkDateOptions(_ f: [String: JSONValue], name: @autoclosure () -> String, path: String) {
        let hasDate = f["dateStyle"] != nil
        let hasTime = f["timeStyle"] != nil
        if hasDate { _ = enumValue(f, "dateStyle", in: path, as: DateStyle.self) }
        if hasTime { _ = enumValue(f, "timeStyle", in: path, as: DateStyle.self) }
        _ = bool(f, "isRelative", in: path)
        _ = bool(f, "ignoresTimeZone", in: path)
        if hasDate != hasTime {
            let (set, missing) = hasDate ? ("dateStyle", "timeStyle") : ("timeStyle", "dateStyle")
            invalid(
                JSONPath.member(path, set),
                "\(name()) sets \(set) without \(missing); set both or neither (use \"\(missing)\": \"PKDateStyleNone\" to hide that part)",
                severity: .warning)
        }
    }

    /// The part of the date checks that reads the field's value.
    mutating func checkDateValue(
        _ f: [String: JSONValue], value: JSONValue?, name: @autoclosure () -> String, path: @autoclosure () -> String
    ) {
        guard f["dateStyle"] != nil || f["timeStyle"] != nil, let value else { return }
        var p: String { JSONPath.member(path(), "value") }
        switch value {
        case .string(let s):
            if let reason = PassDate.problem(with: s) {
                invalid(p, "\(name()) has a date style, so its value must be a complete ISO 8601 timestamp: \(reason)")
            }
        case .integer, .double:
            invalid(
                p,
                "\(name()) has a date style but its value is a number; write an ISO 8601 timestamp such as \"2026-07-22T14:25:00-08:00\", or remove dateStyle/timeStyle"
            )
        default: break
        }
    }

    mutating func checkNumberOptions(_ f: [String: JSONValue], name: @autoclosure () -> String, path: String) {
        if f["numberStyle"] != nil { _ = enumValue(f, "numberStyle", in: path, as: NumberStyle.self) }
        if let code = string(f, "currencyCode", in: path),
            code.count != 3 || !code.allSatisfy({ $0.isASCII && $0.isUppercase })
        {
            invalid(
                JSONPath.member(path, "currencyCode"),
                "currencyCode \"\(code)\" is not an ISO 4217 code; write three capital letters such as \"USD\" or \"EUR\""
            )
        }
        if f["numberStyle"] != nil, f["currencyCode"] != nil {
            // Apple's validator warns; Apple does not document which of the two formats Wallet applies.
            warning(
                PassProblemCode.numberFormatConflict, JSONPath.member(path, "numberStyle"),
                "\(name()) has both currencyCode and numberStyle, which Apple's validator says cannot be set at the "
                    + "same time (Wallet does not document which one wins); keep currencyCode for money and remove "
                    + "numberStyle")
        }
    }

    /// The part of the number checks that reads the field's value.
    mutating func checkNumberValue(
        _ f: [String: JSONValue], value: JSONValue?, name: @autoclosure () -> String, path: @autoclosure () -> String
    ) {
        guard let value, value.doubleValue == nil else { return }
        for key in ["numberStyle", "currencyCode"] where f[key] != nil {
            var fix = "remove \(key)"
            if let s = value.stringValue, Double(s.trimmingSpaces()) != nil {
                fix = "write the value as a number without quotes, or remove \(key)"
            }
            // Wallet shows a text value as it is and ignores the number formatting; the pass installs.
            invalid(
                JSONPath.member(path(), key),
                "\(key) applies only to numeric values, but \(name())'s value is \(Checker.show(value)), so Wallet shows it "
                    + "unformatted; \(fix)",
                severity: .warning)
        }
    }

    mutating func checkRow(_ f: [String: JSONValue], style: PassStyle, group: PassFieldGroup, path: String) {
        guard let v = f["row"] else { return }
        let p = JSONPath.member(path, "row")
        if style != .eventTicket || group != .auxiliaryFields {
            // Ignored outside event ticket auxiliary fields; the pass installs.
            invalid(
                p,
                "row only applies to eventTicket.auxiliaryFields; Wallet ignores it in \(style.rawValue).\(group.rawValue) — remove it",
                severity: .warning)
        } else if v != .integer(0) && v != .integer(1) {
            invalid(p, "row is \(Checker.show(v)); write 0 (first auxiliary row) or 1 (second row)")
        }
    }

    mutating func checkDataDetectors(_ f: [String: JSONValue], group: PassFieldGroup, path: String) {
        guard let items = array(f, "dataDetectorTypes", in: path, of: "detector names") else { return }
        let p = JSONPath.member(path, "dataDetectorTypes")
        for (i, item) in items.enumerated() {
            guard case .string(let s) = item, DataDetectorType(rawValue: s).isKnown else {
                invalid(
                    JSONPath.index(p, i),
                    "dataDetectorTypes entry \(Checker.show(item)) is not a detector Wallet knows; write one of \(DataDetectorType.knownList)"
                )
                continue
            }
        }
        if group != .backFields {
            invalid(
                p, "dataDetectorTypes only applies to backFields; Wallet ignores it in \(group.rawValue) — remove it",
                severity: .warning)
        }
    }
}
