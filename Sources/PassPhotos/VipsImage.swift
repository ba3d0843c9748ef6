internal import CVips
import PassMint

/// Owns one `VipsImage *` (a reference-counted GObject): created by a libvips call, released in `deinit`.
/// Never leaves this file's callers as a raw pointer.
final class VipsImage {
    private let handle: UnsafeMutablePointer<CVips.VipsImage>

    private init(taking handle: UnsafeMutablePointer<CVips.VipsImage>) {
        self.handle = handle
    }

    deinit {
        g_object_unref(handle)
    }

    var width: Int { Int(vips_image_get_width(handle)) }
    var height: Int { Int(vips_image_get_height(handle)) }

    /// The encodings PassMint reads.
    typealias Format = ImageHeader.Format

    /// Decodes `bytes` and cover-crops it to exactly `width`×`height`, rendered into memory so that smaller
    /// scales made from it do not decode the input again. `bytes` need not outlive the call.
    /// - Parameter jpegShrink: decode a JPEG at 1/n size (1, 2, 4 or 8), chosen so the result still covers the
    ///   target.
    static func coverCrop(encoded bytes: [UInt8], format: Format, jpegShrink: Int, width: Int, height: Int)
        throws(VipsFailure) -> VipsImage
    {
        // The pipeline is lazy and reads the buffer while it renders: all of it happens inside the buffer's scope.
        let result = bytes.withUnsafeBytes { buffer -> Result<VipsImage, VipsFailure> in
            var loaded: UnsafeMutablePointer<CVips.VipsImage>?
            let rc =
                switch format {
                case .jpeg: pm_vips_load_jpeg(buffer.baseAddress, buffer.count, Int32(jpegShrink), &loaded)
                case .png: pm_vips_load_png(buffer.baseAddress, buffer.count, &loaded)
                }
            guard rc == 0, let loaded else { return .failure(VipsFailure(VipsRuntime.lastError())) }
            do throws(VipsFailure) {
                let cropped = try VipsImage(taking: loaded).coverCrop(width: width, height: height)
                guard let memory = vips_image_copy_memory(cropped.handle) else {
                    return .failure(VipsFailure(VipsRuntime.lastError()))
                }
                return .success(VipsImage(taking: memory))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// This image cover-cropped to `width`×`height`.
    func coverCrop(width: Int, height: Int) throws(VipsFailure) -> VipsImage {
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        guard pm_vips_thumbnail_image_cover(handle, Int32(width), Int32(height), &out) == 0, let out else {
            throw VipsFailure(VipsRuntime.lastError())
        }
        return VipsImage(taking: out)
    }

    /// The image as an 8-bit PNG without metadata.
    func pngBytes() throws(VipsFailure) -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard pm_vips_pngsave(handle, &buffer, &length) == 0, let buffer else {
            throw VipsFailure(VipsRuntime.lastError())
        }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }
}

/// A libvips call failed; `message` is libvips' own text.
struct VipsFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
