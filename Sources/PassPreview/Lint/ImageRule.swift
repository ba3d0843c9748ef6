import PassModel
import PassMint

/// Every image in all three scales (@1x, @2x, @3x) and at the size its slot expects (`ImageSlot`, the table verify
/// and the photo scaler use).
enum ImageRule {
    static func check(_ c: LintContext, into rows: inout [LintRow]) {
        var bases: [String: [Int: [UInt8]]] = [:]
        for (path, bytes) in c.source.files where !path.contains("/") && path.hasSuffix(".png") {
            var stem = String(path.dropLast(4))
            var scale = 1
            for s in [2, 3] where stem.hasSuffix("@\(s)x") {
                scale = s
                stem = String(stem.dropLast(3))
            }
            bases[stem, default: [:]][scale] = bytes
        }
        let style = c.pass.style?.rawValue
        for base in bases.keys.sorted() {
            guard let slot = ImageSlot.rule(for: base, style: style, isPoster: c.style == .posterEventTicket) else {
                continue
            }
            let scales = bases[base]!
            let existing = scales.sorted(by: { $0.key < $1.key }).lazy.compactMap { scale, bytes in
                ImageInfo.pngSize(bytes).map { (Double($0.width) / Double(scale), Double($0.height) / Double(scale)) }
            }.first
            let point = target(slot, existing)
            for (scale, bytes) in scales.sorted(by: { $0.key < $1.key }) {
                guard let size = ImageInfo.pngSize(bytes),
                    slot.sizeProblem(width: size.width, height: size.height, scale: scale) != nil
                else { continue }
                let name = scale == 1 ? "\(base).png" : "\(base)@\(scale)x.png"
                rows.append(
                    LintRow(
                        LintCode.imageWrongSize, path: name, before: "\(name) \(size.width)×\(size.height)",
                        after: "\(name) \(point.width * scale)×\(point.height * scale)",
                        change:
                            "Wallet shows the \(base) uncropped and unstretched (it scales and crops images to their slot)"
                    ))
            }
            let missing = [1, 2, 3].filter { scales[$0] == nil }
            guard !missing.isEmpty else { continue }
            let names = missing.map { $0 == 1 ? "\(base).png" : "\(base)@\($0)x.png" }
            let sizes = missing.map { "\(point.width * $0)×\(point.height * $0)" }
            rows.append(
                LintRow(
                    LintCode.imageMissingScale, path: names[0], before: LintRow.missing,
                    after: zip(names, sizes).map { "\($0) \($1)" }.joined(separator: ", "),
                    change: "The \(base) is sharp on every screen (now a " + (missing.contains(3) ? "3x" : "2x")
                        + " iPhone upscales a smaller one and it looks blurry)"))
        }
    }

    /// The size in points an image of `slot` should be, keeping the aspect of the image the pass has (`existing`,
    /// in points) where the slot allows a range.
    static func target(_ slot: ImageSlot, _ existing: (Double, Double)?) -> ImageSlot.PointSize {
        guard let (w, h) = existing, w > 0, h > 0 else { return slot.scaledSize }
        switch slot.size {
        case .exact(let sizes):
            return sizes.min {
                abs(Double($0.width) / Double($0.height) - w / h) < abs(Double($1.width) / Double($1.height) - w / h)
            }!
        case .maximum(let maxWidth, let maxHeight):
            let f = min(1, Double(maxWidth) / w, Double(maxHeight) / h)
            return ImageSlot.PointSize(Int((w * f).rounded()), Int((h * f).rounded()))
        case .thumbnail(let side):
            let ratio = min(1.5, max(2.0 / 3.0, w / h))
            return ratio >= 1
                ? ImageSlot.PointSize(side, Int((Double(side) / ratio).rounded()))
                : ImageSlot.PointSize(Int((Double(side) * ratio).rounded()), side)
        case .heightWithWidthRange(let height, let minWidth, let maxWidth):
            let width = min(Double(maxWidth), max(Double(minWidth), w * Double(height) / h))
            return ImageSlot.PointSize(Int(width.rounded()), height)
        }
    }
}
