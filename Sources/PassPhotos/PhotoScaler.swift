import Glibc
import PassMint
import PassModel
import PassTemplates

/// Turns a record's PNG or JPEG into its image slot's @1x, @2x and @3x PNGs at Apple's sizes, cover-cropped to
/// the slot's aspect ratio, through libvips.
///
/// Everything that can be refused is refused from the file's size and header before a pixel is decoded: a path
/// outside the allowed folder, a missing file, a file over the size limit, bytes that are not PNG or JPEG (sniffed,
/// whatever the extension), more than the pixel limit, a decompression bomb. Results are cached by file and target
/// (see `PhotoCache`). Safe to use from many threads at once; each scale runs libvips on the calling thread.
public final class PhotoScaler: PhotoScaling {
    /// Size and pixel limits checked before decoding.
    public let limits: PhotoLimits
    let cache: PhotoCache

    /// - Parameters:
    ///   - limits: what an input may be (defaults: 40 megapixels, 50 MB).
    ///   - cacheBytes: most bytes of scaled PNGs kept for reuse (default 32 MB).
    public init(limits: PhotoLimits = .standard, cacheBytes: Int = 32 * 1_048_576) {
        self.limits = limits
        self.cache = PhotoCache(capacity: cacheBytes)
    }

    /// Starts libvips unless it runs (see `VipsRuntime`); a failure is reported by the first image.
    public func prepare() {
        try? VipsRuntime.start()
    }

    /// The slot's three PNGs, made from the image at `path`.
    /// - Parameters:
    ///   - path: as the record gave it; relative paths start at `folder`.
    ///   - folder: the folder the image must be inside.
    ///   - style: the pass's style (`posterGeneric` when present, else its legacy style); sizes depend on it.
    ///   - isPoster: the pass asks for the poster event ticket layout.
    /// - Throws: `PhotoError` naming the file.
    public func files(slot: String, path: String, folder: String, style: String?, isPoster: Bool) throws(PhotoError)
        -> [PassFile]
    {
        guard let rule = ImageSlot.rule(for: slot, style: style, isPoster: isPoster) else {
            throw .slotUnavailable(slot: slot, style: isPoster ? "poster event ticket" : style ?? "these")
        }
        if let style, let shown = rule.styles, !shown.contains(style) {
            throw .slotNotShown(slot: slot, style: style, shownOn: shown.sorted())
        }
        let size = rule.scaledSize
        let source = try PhotoPath(path, in: folder)
        var info = stat()
        guard stat(source.resolved, &info) == 0 else {
            throw .unreadable(file: path, reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notAFile(file: path) }
        guard Int(info.st_size) <= limits.maxFileBytes else {
            throw .fileTooLarge(file: path, bytes: Int(info.st_size), limit: limits.maxFileBytes)
        }
        let key = PhotoCache.Key(
            path: source.resolved, size: Int(info.st_size), modifiedSeconds: Int(info.st_mtim.tv_sec),
            modifiedNanoseconds: Int(info.st_mtim.tv_nsec), slot: slot, width: size.width, height: size.height)
        if let cached = cache.files(for: key) { return cached }

        let bytes = try read(source.resolved, given: path)
        let header = try limits.checkHeader(bytes, file: path)
        try VipsRuntime.start()
        var files: [PassFile] = []
        do throws(VipsFailure) {
            // The largest scale comes from the file, the smaller ones from it. A JPEG is decoded at the smallest
            // 1/n that still covers the largest target in either orientation (EXIF may turn it).
            let side = max(size.width, size.height) * 3
            var shrink = 1
            while shrink < 8, min(header.width, header.height) / (shrink * 2) >= side { shrink *= 2 }
            let largest = try VipsImage.coverCrop(
                encoded: bytes, format: header.format, jpegShrink: shrink, width: size.width * 3,
                height: size.height * 3)
            for scale in PhotoFiles.scales {
                let image =
                    scale == 3 ? largest : try largest.coverCrop(width: size.width * scale, height: size.height * scale)
                files.append(
                    PassFile(
                        path: PhotoFiles.fileName(slot: slot, scale: scale), bytes: try image.pngBytes(),
                        isSharedAsset: false,
                        isPerRecord: true))
            }
        } catch {
            throw .decodeFailed(file: path, message: error.message)
        }
        cache.insert(files, for: key)
        return files
    }

    /// The file's bytes, refusing it once more than `limits.maxFileBytes` have been read (so a file that grows
    /// after `stat` is refused too).
    private func read(_ resolved: String, given: String) throws(PhotoError) -> [UInt8] {
        let fd = open(resolved, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(file: given, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(file: given, reason: String(cString: strerror(errno)))
            }
            if got == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<got])
            if bytes.count > limits.maxFileBytes {
                throw .fileTooLarge(file: given, bytes: bytes.count, limit: limits.maxFileBytes)
            }
        }
    }
}
