import Testing
import PassModel
@testable import PassMint
@testable import PassPreview

@Suite("Preview: barcodes drawn by libzint")
struct PreviewBarcodeTests {
    @Test(
        "every Wallet format draws an SVG of dark modules",
        arguments: [
            (BarcodeFormat.qr, "PMC-1000-0001"), (.pdf417, "PMA-2000-0001"), (.aztec, "M1DOE/JOHN"),
            (.code128, "TICKET-42"), (.ean13, "2000100000014"), (.code39, "MEMBER 42"), (.codabar, "A123456A"),
            (.i2of5, "12345678"),
        ])
    func drawsEveryFormat(format: BarcodeFormat, message: String) throws {
        let image = try BarcodeImage.draw(PassBarcode(format: format, message: message), path: "barcodes[0]")
        #expect(image.svg.hasPrefix("<svg "))
        #expect(image.svg.contains("<path fill=\"#000\" d=\"M"))
        #expect(image.modules.width > 10)
        #expect(image.isSquare == (format == .qr || format == .aztec))
    }

    @Test("a message the format cannot encode is a typed error naming the path and the fix")
    func badMessage() {
        #expect(throws: PreviewError.self) {
            try BarcodeImage.draw(PassBarcode(format: .ean13, message: "2000100000015"), path: "barcodes[0]")
        }
        do {
            _ = try BarcodeImage.draw(PassBarcode(format: .ean13, message: "2000100000015"), path: "barcodes[0]")
        } catch {
            #expect(error.description.contains("barcodes[0]"))
            #expect(error.description.contains("2000100000014"))
        }
    }

    @Test("ISO-8859-1 messages are encoded one byte per character, others as UTF-8")
    func encodings() {
        #expect(BarcodeImage.encodedBytes("é", encoding: "iso-8859-1") == [0xE9])
        #expect(BarcodeImage.encodedBytes("é", encoding: "utf-8") == [0xC3, 0xA9])
        #expect(BarcodeImage.encodedBytes("€", encoding: "iso-8859-1") == Array("€".utf8))
    }
}
