extension Checker {
    mutating func checkBarcodes(_ root: [String: JSONValue]) {
        if let v = root["barcodes"] {
            if case .array(let items) = v {
                var formats: [BarcodeFormat?] = []
                for (i, item) in items.enumerated() {
                    formats.append(checkBarcode(item, at: JSONPath.index("barcodes", i), legacyKey: false))
                }
                checkFallbacks(formats)
            } else if case .object = v {
                invalid(
                    "barcodes",
                    "barcodes is a single object; it must be an array — wrap it in [ … ] (Apple's sample JSON shows an object, which is a documentation error)"
                )
            } else {
                wrongType("barcodes", v, expected: "an array [ … ] of barcode dictionaries")
            }
        }
        if let v = root["barcode"] {
            let format = checkBarcode(v, at: "barcode", legacyKey: true)
            if format == .code128 {
                invalid(
                    "barcode.format",
                    "PKBarcodeFormatCode128 is not allowed in the deprecated single \"barcode\"; use QR, PDF417 or Aztec there, and put Code128 in \"barcodes\""
                )
            } else if let format, !format.isLegacy {
                invalid(
                    "barcode.format",
                    "\(format.rawValue) is an iOS 27 format and not allowed in the deprecated single \"barcode\"; use QR, PDF417 or Aztec there, and put \(format.rawValue) in \"barcodes\""
                )
            }
        }
    }

    /// Checks one barcode dictionary; returns its format when it is a known one.
    mutating func checkBarcode(_ v: JSONValue, at place: @autoclosure () -> String, legacyKey: Bool) -> BarcodeFormat? {
        // Built only for a message: this runs for every barcode of every pass issued.
        var path: String { place() }
        guard let b = object(v, at: path, what: "a barcode dictionary {\"format\", \"message\", \"messageEncoding\"}")
        else { return nil }
        var format: BarcodeFormat?
        if b["format"] == nil {
            error(
                PassProblemCode.missingKey, JSONPath.member(path, "format"),
                "barcode at \(path) has no \"format\"; add one of \(BarcodeFormat.knownList)")
        } else {
            format = enumValue(b, "format", in: path, as: BarcodeFormat.self)
        }
        for (key, hint) in [
            ("message", "the payload the scanner reads"),
            ("messageEncoding", "an IANA charset name, usually \"iso-8859-1\""),
        ] {
            var p: String { JSONPath.member(path, key) }
            guard b[key] != nil else {
                error(PassProblemCode.missingKey, p, "barcode at \(path) has no \"\(key)\"; add \(hint)")
                continue
            }
            guard let s = string(b, key, in: path) else { continue }
            if s.isEmpty {
                invalid(p, "barcode \(key) is empty; write \(hint)")
            } else if key == "message", let problem = format?.messageProblem(s) {
                // The symbology's rule, not Apple's [U]: a scanner may still read what Wallet draws.
                warning(
                    PassProblemCode.barcodeMessage, p,
                    "\(problem) (a rule of the symbology; Apple documents none for \(format!.rawValue))")
            }
        }
        _ = string(b, "altText", in: path)
        unknownKeys(b, known: PassBarcode.knownKeys, in: path)
        return format
    }

    /// iOS 27 formats must be followed by a legacy one so older systems still show a code.
    mutating func checkFallbacks(_ formats: [BarcodeFormat?]) {
        for (i, f) in formats.enumerated() {
            guard let f, f.isKnown, !f.isLegacy else { continue }
            let hasFallback = formats[(i + 1)...].contains { $0?.isLegacy ?? false }
            if !hasFallback {
                invalid(
                    JSONPath.member(JSONPath.index("barcodes", i), "format"),
                    "\(f.rawValue) needs iOS 27 and no QR, PDF417, Aztec or Code128 entry follows it, so older iPhones show no barcode; add a legacy barcode after it",
                    severity: .warning)
            }
        }
    }
}
