internal import CVips

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

    /// Decodes `bytes` (PNG or JPEG) and cover-crops it to exactly `width`×`height`, rendered into memory so that
    /// smaller scales made from it do not decode the input again. `bytes` need not outlive the call.
    static func coverCrop(encoded bytes: [UInt8], width: Int, height: Int) throws(VipsFailure) -> VipsImage {
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        let rc = bytes.withUnsafeBytes {
            pm_vips_thumbnail_cover($0.baseAddress, $0.count, Int32(width), Int32(height), &out)
        }
        guard rc == 0, let out else { throw VipsFailure(VipsRuntime.lastError()) }
        // The thumbnail is lazy and reads `bytes` while it renders: render it now, inside their lifetime.
        let lazy = VipsImage(taking: out)
        guard let memory = vips_image_copy_memory(lazy.handle) else { throw VipsFailure(VipsRuntime.lastError()) }
        return VipsImage(taking: memory)
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
