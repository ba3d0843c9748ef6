/// An entry of `barcodes`, or the deprecated single `barcode`.
public struct PassBarcode: Sendable, Equatable {
    public var format: BarcodeFormat?
    public var message: String?
    /// IANA charset name, usually `iso-8859-1`.
    public var messageEncoding: String?
    /// Human-readable text under the code.
    public var altText: String?
    /// Keys PassMint does not know, kept verbatim.
    public var unknownKeys: [String: JSONValue]

    /// The keys PassMint knows in a barcode dictionary.
    public static let knownKeys: Set<String> = ["format", "message", "messageEncoding", "altText"]

    /// A barcode; the encoding defaults to `iso-8859-1`.
    public init(format: BarcodeFormat, message: String, messageEncoding: String = "iso-8859-1", altText: String? = nil)
    {
        self.format = format
        self.message = message
        self.messageEncoding = messageEncoding
        self.altText = altText
        self.unknownKeys = [:]
    }

    init(_ r: ObjectReader) throws(PassModelError) {
        format = try r.enumeration("format")
        message = try r.string("message")
        messageEncoding = try r.string("messageEncoding")
        altText = try r.string("altText")
        unknownKeys = r.unknownMembers(known: Self.knownKeys)
    }

    /// The strict JSON form.
    public var jsonValue: JSONValue {
        var w = ObjectWriter(unknown: unknownKeys)
        w.set("format", format)
        w.set("message", message)
        w.set("messageEncoding", messageEncoding)
        w.set("altText", altText)
        return w.value
    }
}
