extension Checker {
    mutating func checkService(_ root: [String: JSONValue]) {
        checkWebService(root)
        checkApps(root)
        if let g = string(root, "groupingIdentifier", in: "") {
            let style = PassStyle.allCases.first { root[$0.rawValue] != nil }
            if let style, style != .eventTicket, style != .boardingPass {
                invalid(
                    "groupingIdentifier",
                    "groupingIdentifier \"\(g)\" only groups event tickets and boarding passes; Wallet ignores it on a \(style.rawValue) — remove it",
                    severity: .warning)
            }
        }
        checkNFC(root)
    }

    mutating func checkWebService(_ root: [String: JSONValue]) {
        let hasURL = root["webServiceURL"] != nil
        let hasToken = root["authenticationToken"] != nil
        if let url = string(root, "webServiceURL", in: "") {
            let lower = url.lowercased()
            if !lower.hasPrefix("https://") && !lower.hasPrefix("http://") {
                invalid(
                    "webServiceURL",
                    "webServiceURL \"\(url)\" is not an http(s) URL; write the base URL of the update service, e.g. \"https://passes.example.com/\""
                )
            } else if lower.hasPrefix("http://") {
                invalid(
                    "webServiceURL",
                    "webServiceURL \"\(url)\" uses plain http; Wallet accepts http only on development devices — use https in production",
                    severity: .warning)
            }
        }
        if let token = string(root, "authenticationToken", in: ""), token.count < 16 {
            invalid(
                "authenticationToken",
                "authenticationToken has \(token.count) characters; it must have at least 16 — use a random token such as 32 hex characters"
            )
        }
        if hasURL && !hasToken {
            invalid(
                "authenticationToken",
                "webServiceURL is set but authenticationToken is missing; add a random token of at least 16 characters, or remove webServiceURL"
            )
        } else if hasToken && !hasURL {
            invalid(
                "webServiceURL",
                "authenticationToken is set but webServiceURL is missing; add the update service's URL, or remove authenticationToken"
            )
        }
    }

    mutating func checkApps(_ root: [String: JSONValue]) {
        var storeIDs = 0
        for key in ["associatedStoreIdentifiers", "auxiliaryStoreIdentifiers"] {
            guard let items = array(root, key, in: "", of: "App Store IDs (numbers)") else { continue }
            if key == "associatedStoreIdentifiers" { storeIDs = items.count }
            for (i, item) in items.enumerated() {
                guard case .integer(let n) = item, n > 0 else {
                    invalid(
                        JSONPath.index(key, i),
                        "\(key) entry is \(Checker.show(item)); write the app's numeric App Store ID without quotes, e.g. 284882215"
                    )
                    continue
                }
            }
        }
        if let url = string(root, "appLaunchURL", in: "") {
            if !Self.hasScheme(url) {
                invalid(
                    "appLaunchURL",
                    "appLaunchURL \"\(url)\" is not a URL; write a URL your app handles, e.g. \"myapp://pass/123\"",
                    severity: .warning)
            }
            if storeIDs == 0 {
                invalid(
                    "appLaunchURL",
                    "appLaunchURL is set but associatedStoreIdentifiers is missing or empty, so Wallet ignores the URL (the pass installs); add \"associatedStoreIdentifiers\": [your app's App Store ID], or remove appLaunchURL",
                    severity: .warning
                )
            }
        }
    }

    mutating func checkNFC(_ root: [String: JSONValue]) {
        guard let v = root["nfc"] else { return }
        guard let n = object(v, at: "nfc", what: "a dictionary {\"message\": …, \"encryptionPublicKey\": …}") else {
            return
        }
        if n["message"] == nil {
            invalid("nfc.message", "nfc has no \"message\"; add the payload the terminal receives (at most 64 bytes)")
        } else if let m = string(n, "message", in: "nfc") {
            if m.isEmpty {
                invalid("nfc.message", "nfc message is empty; write the payload the terminal receives")
            } else if m.utf8.count > 64 {
                invalid(
                    "nfc.message",
                    "nfc message has \(m.utf8.count) bytes; terminals are commonly limited to 64 — shorten it",
                    severity: .warning)
            }
        }
        if n["encryptionPublicKey"] == nil {
            invalid(
                "nfc.encryptionPublicKey",
                "nfc has no \"encryptionPublicKey\"; add the Base64 X.509 SubjectPublicKeyInfo of your terminal's ECDH P-256 key"
            )
        } else if let k = string(n, "encryptionPublicKey", in: "nfc"), !Self.isBase64(k) {
            invalid(
                "nfc.encryptionPublicKey",
                "encryptionPublicKey is not Base64; write the Base64 of the DER SubjectPublicKeyInfo (ECDH P-256), without PEM header lines"
            )
        }
        _ = bool(n, "requiresAuthentication", in: "nfc")
        unknownKeys(n, known: PassNFC.knownKeys, in: "nfc")
    }

    static func isBase64(_ s: String) -> Bool {
        let body = s.utf8
        guard !body.isEmpty, body.count % 4 == 0 else { return false }
        var padding = 0
        for b in body {
            let isAlnum = (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
            if b == UInt8(ascii: "=") {
                padding += 1
            } else if padding > 0 || !(isAlnum || b == UInt8(ascii: "+") || b == UInt8(ascii: "/")) {
                return false
            }
        }
        return padding <= 2
    }
}
