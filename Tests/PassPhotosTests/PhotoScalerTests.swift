import Foundation
import Testing
import PassMintTestSupport
import PassModel
@testable import PassTemplates
@testable import PassMint
@testable import PassPhotos

/// The member-photo scaler: sizes per slot and scale, cover crop, PNG out, and every refusal before decoding.
@Suite("photo scaler")
struct PhotoScalerTests {
    /// One landscape JPEG shared by the size table (made once per test process).
    static let landscape: (folder: PhotoFolder, name: String) = {
        let folder = try! PhotoFolder()
        return (folder, try! folder.plasma("landscape.jpg", 640, 400))
    }()

    static func sizes(_ files: [PassFile]) -> [String: String] {
        var sizes: [String: String] = [:]
        for file in files {
            if let size = ImageInfo.pngSize(file.bytes) { sizes[file.path] = "\(size.width)x\(size.height)" }
        }
        return sizes
    }

    @Test(
        "each slot is scaled to its point size at @1x, @2x and @3x for the style",
        arguments: [
            ("thumbnail", "generic", "90x90", "180x180", "270x270"),
            ("thumbnail", "eventTicket", "90x90", "180x180", "270x270"),
            ("strip", "storeCard", "375x123", "750x246", "1125x369"),
            ("strip", "eventTicket", "375x98", "750x196", "1125x294"),
            ("strip", "coupon", "375x144", "750x288", "1125x432"),
            ("background", "eventTicket", "180x220", "360x440", "540x660"),
            ("logo", "generic", "160x50", "320x100", "480x150"),
            ("artwork", "posterGeneric", "358x448", "716x896", "1074x1344"),
            ("primaryLogo", "posterGeneric", "126x30", "252x60", "378x90"),
        ])
    func slotSizes(slot: String, style: String, x1: String, x2: String, x3: String) throws {
        let scaler = PhotoScaler()
        let files = try scaler.files(
            slot: slot, path: Self.landscape.name, folder: Self.landscape.folder.path, style: style, isPoster: false)
        #expect(files.map(\.path) == ["\(slot).png", "\(slot)@2x.png", "\(slot)@3x.png"])
        #expect(Self.sizes(files) == ["\(slot).png": x1, "\(slot)@2x.png": x2, "\(slot)@3x.png": x3])
        #expect(files.allSatisfy { $0.isPerRecord && !$0.isSharedAsset })
        #expect(files.allSatisfy { Array($0.bytes.prefix(8)) == ImageInfo.pngSignature })
    }

    @Test("a wide image is cover-cropped from its centre: no bars, no stretching")
    func coverCropFromCentre() throws {
        let folder = try PhotoFolder()
        // Three 300×300 squares side by side: a square crop of the centre is all green.
        try folder.run("convert", ["-size", "300x300", "xc:red", "xc:lime", "xc:blue", "+append", "wide.png"])
        let files = try PhotoScaler().files(
            slot: "thumbnail", path: "wide.png", folder: folder.path, style: "generic", isPoster: false)
        let largest = try #require(files.last)
        try folder.write("out.png", largest.bytes)
        for (x, y) in [(2, 2), (267, 2), (2, 267), (267, 267), (135, 135)] {
            let text = try CLI.check("vips", ["getpoint", "\(folder.path)/out.png", "\(x)", "\(y)"]).stdout
            let rgb = text.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
            #expect(rgb.count >= 3 && rgb[0] < 16 && rgb[1] > 240 && rgb[2] < 16, "pixel \(x),\(y) is \(text)")
        }
    }

    @Test("a photo used by many records is decoded once; an edited file is scaled again")
    func cache() throws {
        let folder = try PhotoFolder()
        try folder.plasma("same.jpg", 200, 200)
        let scaler = PhotoScaler()
        let first = try scaler.files(
            slot: "thumbnail", path: "same.jpg", folder: folder.path, style: "generic", isPoster: false)
        let again = try scaler.files(
            slot: "thumbnail", path: "./same.jpg", folder: folder.path, style: "generic", isPoster: false)
        #expect(first == again)
        #expect(scaler.cache.count == 1)
        // Another target size of the same file is its own entry.
        _ = try scaler.files(slot: "strip", path: "same.jpg", folder: folder.path, style: "storeCard", isPoster: false)
        #expect(scaler.cache.count == 2)
        try folder.run("convert", ["-size", "300x200", "xc:navy", "same.jpg"])
        let edited = try scaler.files(
            slot: "thumbnail", path: "same.jpg", folder: folder.path, style: "generic", isPoster: false)
        #expect(edited != first)
    }

    @Test("the cache stays within its byte budget, dropping the least recently used entry")
    func cacheBound() throws {
        let cache = PhotoCache(capacity: 1000)
        func key(_ n: Int) -> PhotoCache.Key {
            .init(
                path: "/p\(n)", size: 1, modifiedSeconds: 0, modifiedNanoseconds: 0, slot: "thumbnail", width: 90,
                height: 90)
        }
        func file(_ n: Int) -> [PassFile] {
            [PassFile(path: "t.png", bytes: [UInt8](repeating: 0, count: 400), isSharedAsset: false)]
        }
        cache.insert(file(1), for: key(1))
        cache.insert(file(2), for: key(2))
        _ = cache.files(for: key(1))  // 1 is now the most recent
        cache.insert(file(3), for: key(3))
        #expect(cache.bytesHeld <= 1000)
        #expect(cache.files(for: key(1)) != nil)
        #expect(cache.files(for: key(2)) == nil)
        #expect(cache.files(for: key(3)) != nil)
    }

    /// Runs the scaler on `name` in `folder` and returns its error.
    static func refusal(
        _ name: String, in folder: PhotoFolder, limits: PhotoLimits = .standard, style: String = "generic"
    )
        -> PhotoError?
    {
        do {
            _ = try PhotoScaler(limits: limits).files(
                slot: "thumbnail", path: name, folder: folder.path, style: style, isPoster: false)
            return nil
        } catch {
            return error
        }
    }

    @Test("a missing file is named")
    func missing() throws {
        let folder = try PhotoFolder()
        let error = try #require(Self.refusal("photos/nobody.jpg", in: folder))
        #expect(error == .missing(file: "photos/nobody.jpg"))
        #expect(error.description.contains("photos/nobody.jpg"))
    }

    @Test("a text file named .jpg is not an image, whatever its extension")
    func textNamedJPEG() throws {
        let folder = try PhotoFolder()
        try folder.write("fake.jpg", Array("just some text, not a photo\n".utf8))
        let error = try #require(Self.refusal("fake.jpg", in: folder))
        guard case .notAnImage(let file, _) = error else { Issue.record("got \(error)"); return }
        #expect(file == "fake.jpg")
        #expect(error.description.contains("not a PNG or JPEG"))
    }

    @Test("a GIF is refused by its bytes")
    func gif() throws {
        let folder = try PhotoFolder()
        try folder.run("convert", ["-size", "20x20", "xc:red", "red.gif"])
        try FileManager.default.moveItem(atPath: folder.path + "/red.gif", toPath: folder.path + "/red.png")
        #expect(Self.refusal("red.png", in: folder) == .notAnImage(file: "red.png", found: "GIF"))
    }

    @Test("a 60-megapixel PNG is refused from its header")
    func sixtyMegapixels() throws {
        let folder = try PhotoFolder()
        // vips writes it streaming (ImageMagick would hold all 60 megapixels in memory).
        try folder.run("vips", ["black", "big.png", "10000", "6000", "--bands", "3"])
        let error = try #require(Self.refusal("big.png", in: folder))
        #expect(error == .tooManyPixels(file: "big.png", width: 10000, height: 6000, limit: 40_000_000))
        #expect(error.description.contains("60 megapixels"))
    }

    @Test("a PNG bomb (tiny file, 100000×100000 declared) is refused before decoding")
    func bomb() throws {
        let folder = try PhotoFolder()
        let bomb = TestPhotos.pngBomb(width: 100_000, height: 100_000)
        try folder.write("bomb.png", bomb)
        let error = try #require(Self.refusal("bomb.png", in: folder))
        #expect(error == .decompressionBomb(file: "bomb.png", width: 100_000, height: 100_000, bytes: bomb.count))
        #expect(error.description.contains("decompression bomb"))
    }

    @Test("a JPEG whose frame header declares too many pixels is refused from the header")
    func jpegHeader() throws {
        let folder = try PhotoFolder()
        try folder.plasma("small.jpg", 64, 48)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path + "/small.jpg")))
        #expect(ImageInfo.jpegSize(bytes)! == (64, 48))
        // Patch the SOF0 frame header to 65000×65000.
        let sof = try #require(
            (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2) })
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: [0xFD, 0xE8, 0xFD, 0xE8])
        try folder.write("huge.jpg", bytes)
        guard case .decompressionBomb(_, 65000, 65000, _)? = Self.refusal("huge.jpg", in: folder) else {
            Issue.record("expected a decompression bomb"); return
        }
    }

    @Test("a file over the size limit is refused before it is read")
    func fileTooLarge() throws {
        let folder = try PhotoFolder()
        try folder.plasma("photo.jpg", 300, 300)
        let error = Self.refusal("photo.jpg", in: folder, limits: PhotoLimits(maxFileBytes: 1000))
        guard case .fileTooLarge(let file, _, 1000)? = error else {
            Issue.record("got \(String(describing: error))"); return
        }
        #expect(file == "photo.jpg")
    }

    @Test("'../' paths, absolute paths outside and symlinks pointing out are refused; inside is fine")
    func outsideFolder() throws {
        let outside = try PhotoFolder()
        try outside.plasma("secret.jpg", 50, 50)
        let folder = try PhotoFolder()
        try folder.plasma("ok.jpg", 50, 50)
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/link.jpg", withDestinationPath: outside.path + "/secret.jpg")
        try FileManager.default.createDirectory(atPath: folder.path + "/sub", withIntermediateDirectories: true)
        let relative = "../" + (outside.path as NSString).lastPathComponent + "/secret.jpg"
        for path in [relative, "sub/../../x.jpg", outside.path + "/secret.jpg", "link.jpg"] {
            guard case .outsideFolder(let file, _)? = Self.refusal(path, in: folder) else {
                Issue.record("\(path) was not refused as outside"); continue
            }
            #expect(file == path)
        }
        #expect(Self.refusal("sub/../ok.jpg", in: folder) == nil)
        #expect(Self.refusal(folder.path + "/ok.jpg", in: folder) == nil)
    }

    @Test("a slot the style never shows is refused with the styles that show it")
    func slotNotShown() throws {
        let folder = try PhotoFolder()
        try folder.plasma("p.jpg", 50, 50)
        #expect(
            Self.refusal("p.jpg", in: folder, style: "storeCard")
                == .slotNotShown(slot: "thumbnail", style: "storeCard", shownOn: ["eventTicket", "generic"]))
    }

    @Test("a truncated JPEG (valid header) fails with libvips' reason instead of grey rows, never a crash")
    func damaged() throws {
        let folder = try PhotoFolder()
        try folder.plasma("whole.jpg", 400, 300)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path + "/whole.jpg")))
        try folder.write("cut.jpg", Array(bytes.prefix(bytes.count / 3)))
        let error = try #require(Self.refusal("cut.jpg", in: folder))
        guard case .decodeFailed(let file, let message) = error else { Issue.record("got \(error)"); return }
        #expect(file == "cut.jpg")
        #expect(!message.isEmpty)
    }
}
