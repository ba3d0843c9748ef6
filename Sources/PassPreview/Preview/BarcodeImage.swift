internal import CZint
import PassModel

/// A barcode drawn for real by libzint, as an SVG document (crisp at any scale, readable by `zbarimg` in a
/// screenshot) with the size it should be shown at in CSS points.
public struct BarcodeImage: Sendable, Equatable {
    public var format: BarcodeFormat
    /// A self-contained `<svg>` element, black modules on white, with quiet zones.
    public var svg: String
    /// The drawn symbol's size in modules.
    public var modules: (width: Double, height: Double)
    /// True for QR and Aztec, which Wallet draws square.
    public var isSquare: Bool

    public static func == (a: Self, b: Self) -> Bool { a.format == b.format && a.svg == b.svg }

    /// Draws `barcode` as Wallet would: the message in its `messageEncoding` (ISO-8859-1 by default), QR with
    /// error correction M, PDF417 and the linear codes at Wallet-like proportions.
    /// - Parameter path: the barcode's JSON path, for messages (`barcodes[0]`).
    /// - Throws: `PreviewError.barcode` when the format is unknown or the message cannot be encoded in it.
    public static func draw(_ barcode: PassBarcode, path: String) throws(PreviewError) -> BarcodeImage {
        guard let format = barcode.format else {
            throw .barcode(path: path, .noFormat)
        }
        guard let message = barcode.message, !message.isEmpty else {
            throw .barcode(path: path, .noMessage)
        }
        if let problem = format.messageProblem(message) { throw .barcode(path: path, .invalidMessage(problem)) }
        let bytes = encodedBytes(message, encoding: barcode.messageEncoding)
        let symbol: ZintSymbol
        switch format {
        case .qr: symbol = try ZintSymbol(symbology: BARCODE_QRCODE, inputMode: DATA_MODE, option1: 2)
        case .aztec: symbol = try ZintSymbol(symbology: BARCODE_AZTEC, inputMode: DATA_MODE)
        case .pdf417: symbol = try ZintSymbol(symbology: BARCODE_PDF417, inputMode: DATA_MODE, option2: 4)
        case .code128: symbol = try ZintSymbol(symbology: BARCODE_CODE128, inputMode: DATA_MODE, height: 40)
        case .ean13: symbol = try ZintSymbol(symbology: BARCODE_EANX, inputMode: DATA_MODE, height: 50)
        case .code39: symbol = try ZintSymbol(symbology: BARCODE_CODE39, inputMode: DATA_MODE, height: 40)
        case .codabar: symbol = try ZintSymbol(symbology: BARCODE_CODABAR, inputMode: DATA_MODE, height: 40)
        case .i2of5: symbol = try ZintSymbol(symbology: BARCODE_C25INTER, inputMode: DATA_MODE, height: 40)
        default:
            throw .barcode(path: path, .unsupportedFormat(format.rawValue))
        }
        // Codabar needs start and stop characters; Wallet's own rule is unknown, so a bare message gets A…A.
        var data = bytes
        if format == .codabar, let first = message.first, !"ABCD".contains(first) {
            data = Array("A".utf8) + bytes + Array("A".utf8)
        }
        try symbol.encode(data, path: path)
        let (width, height) = symbol.size
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(f(width)) \(f(height))\" "
            + "preserveAspectRatio=\"none\" shape-rendering=\"crispEdges\">"
            + "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/><path fill=\"#000\" d=\""
        for r in symbol.rectangles {
            svg += "M\(f(r.x)) \(f(r.y))h\(f(r.width))v\(f(r.height))h-\(f(r.width))z"
        }
        svg += "\"/></svg>"
        return BarcodeImage(
            format: format, svg: svg, modules: (Double(width), Double(height)),
            isSquare: format == .qr || format == .aztec)
    }

    /// The message's bytes in the pass's `messageEncoding`: ISO-8859-1 (Wallet's usual, and the default) maps
    /// each character below U+0100 to one byte; UTF-8 otherwise.
    static func encodedBytes(_ message: String, encoding: String?) -> [UInt8] {
        let name = (encoding ?? "iso-8859-1").lowercased()
        if name.contains("8859-1") || name == "latin1",
            message.unicodeScalars.allSatisfy({ $0.value < 0x100 })
        {
            return message.unicodeScalars.map { UInt8($0.value) }
        }
        return Array(message.utf8)
    }

    private static func f(_ v: Float) -> String {
        v == v.rounded() ? String(Int(v)) : String(v)
    }
}
