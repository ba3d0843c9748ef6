internal import COpenSSL

/// An X.509 name as ordered (short name, value) pairs, in DER order.
struct DistinguishedName: Sendable, Equatable {
    struct Attribute: Sendable, Equatable {
        var shortName: String
        var value: String
        var set: Int32
    }

    var attributes: [Attribute]

    init(_ name: OpaquePointer?) {
        attributes = []
        guard let name else { return }
        for index in 0..<X509_NAME_entry_count(name) {
            guard let entry = X509_NAME_get_entry(name, index) else { continue }
            let object = X509_NAME_ENTRY_get_object(entry)
            let nid = OBJ_obj2nid(object)
            let shortName =
                nid == NID_undef
                ? X509Facts.objectText(object) : String(cString: OBJ_nid2sn(nid))
            let value = OpenSSL.string(X509_NAME_ENTRY_get_data(entry)) ?? ""
            attributes.append(Attribute(shortName: shortName, value: value, set: X509_NAME_ENTRY_set(entry)))
        }
    }

    /// The first value of the attribute with this short name ("CN", "OU", "UID", ...).
    func first(_ shortName: String) -> String? {
        attributes.first { $0.shortName == shortName }?.value
    }

    /// One line in DER order, "UID=pass.x, CN=Pass Type ID: pass.x, OU=TEAM, O=Org, C=US", with RFC 2253 escaping.
    var oneLine: String {
        var out = ""
        for (index, attribute) in attributes.enumerated() {
            if index > 0 { out += attribute.set == attributes[index - 1].set ? " + " : ", " }
            out += attribute.shortName + "=" + Self.escape(attribute.value)
        }
        return out
    }

    private static func escape(_ value: String) -> String {
        var out = ""
        for (index, character) in value.enumerated() {
            let special =
                ",+\"\\<>;".contains(character)
                || (index == 0 && (character == "#" || character == " "))
                || (index == value.count - 1 && character == " ")
            if special { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
