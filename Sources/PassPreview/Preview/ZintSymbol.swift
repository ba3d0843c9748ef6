internal import CZint

/// The one owner of a `zint_symbol`: created in `init`, freed by `ZBarcode_Delete` in `deinit`. The pointer never
/// leaves this class; callers get plain Swift values (`rectangles`, sizes) out of it.
final class ZintSymbol {
    private let symbol: UnsafeMutablePointer<zint_symbol>

    /// A symbol of zint's `symbology` (a `BARCODE_*` constant) with PassMint's drawing options.
    init(symbology: Int32, inputMode: Int32, option1: Int32 = -1, option2: Int32 = 0, height: Float = 0)
        throws(PreviewError)
    {
        guard let made = ZBarcode_Create() else {
            throw .environment(.outOfMemory)
        }
        symbol = made
        pm_zint_configure(symbol, symbology, inputMode, option1, option2, height)
    }

    deinit { ZBarcode_Delete(symbol) }

    /// Encodes `data` and lays it out as vector rectangles.
    /// - Throws: `PreviewError.barcode` with zint's error text; warnings (a substituted option) are accepted.
    func encode(_ data: [UInt8], path: String) throws(PreviewError) {
        let code = data.withUnsafeBufferPointer { ZBarcode_Encode(symbol, $0.baseAddress, Int32($0.count)) }
        if code >= ZINT_ERROR { throw .barcode(path: path, .zint(String(cString: pm_zint_errtxt(symbol)))) }
        let drawn = ZBarcode_Buffer_Vector(symbol, 0)
        if drawn >= ZINT_ERROR { throw .barcode(path: path, .zint(String(cString: pm_zint_errtxt(symbol)))) }
    }

    /// The drawn image's size in zint units (one unit is one module, the narrowest bar).
    var size: (width: Float, height: Float) { (pm_zint_vector_width(symbol), pm_zint_vector_height(symbol)) }

    /// The dark rectangles of the drawn image, in zint units.
    var rectangles: [(x: Float, y: Float, width: Float, height: Float)] {
        var out: [(Float, Float, Float, Float)] = []
        var next = pm_zint_first_rect(symbol)
        while let rect = next {
            out.append((rect.pointee.x, rect.pointee.y, rect.pointee.width, rect.pointee.height))
            next = UnsafePointer(rect.pointee.next)
        }
        return out
    }
}

// One symbol is encoded and read on one thread; zint's symbol struct is not safe to share.
@available(*, unavailable) extension ZintSymbol: Sendable {}
