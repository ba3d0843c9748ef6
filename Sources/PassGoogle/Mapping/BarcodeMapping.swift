import PassModel

/// Apple's barcodes → Google's one `barcode`: the first entry whose format Google can draw; the others are gaps.
enum BarcodeMapping {
    static func apply(_ ctx: inout MappingContext) {
        var entries: [(path: String, barcode: PassBarcode)] = []
        for (index, barcode) in (ctx.pass.barcodes ?? []).enumerated() {
            entries.append((JSONPath.index("barcodes", index), barcode))
        }
        if entries.isEmpty, let legacy = ctx.pass.barcode { entries.append(("barcode", legacy)) }
        guard !entries.isEmpty else { return }
        var chosen: JSONValue?
        for entry in entries {
            guard let message = entry.barcode.message else { continue }
            guard chosen == nil else {
                ctx.gap(entry.path, .extraBarcode)
                continue
            }
            guard let type = googleType(entry.barcode.format, message: message) else {
                ctx.gap(entry.path, .barcodeFormat(entry.barcode.format?.rawValue ?? "none"))
                continue
            }
            var object: [String: JSONValue] = ["type": .string(type), "value": .string(message)]
            if let alt = entry.barcode.altText, !alt.isEmpty { object["alternateText"] = .string(alt) }
            chosen = .object(object)
        }
        if chosen == nil, let first = entries.first, let message = first.barcode.message {
            // No format Google draws: it shows the text alone.
            var object: [String: JSONValue] = ["type": "TEXT_ONLY", "value": .string(message)]
            object["alternateText"] = .string(first.barcode.altText ?? message)
            chosen = .object(object)
        }
        ctx.object["barcode"] = chosen
    }

    /// Google's barcode type for an Apple format (the UPPER_SNAKE names; the lower-case ones are deprecated).
    static func googleType(_ format: BarcodeFormat?, message: String) -> String? {
        switch format {
        case .qr?: return "QR_CODE"
        case .pdf417?: return "PDF_417"
        case .aztec?: return "AZTEC"
        case .code128?: return "CODE_128"
        case .code39?: return "CODE_39"
        case .codabar?: return "CODABAR"
        case .ean13?: return "EAN_13"
        case .i2of5?:
            // Google's only interleaved 2 of 5 is ITF-14.
            return message.utf8.count == 14 && message.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) ? "ITF_14" : nil
        default: return nil
        }
    }
}
