import Foundation

/// Photos for the end-to-end tests, made at test time (ImageMagick, the vips CLI, python3), and an independent
/// reader of the passes' image entries.
enum PhotoTools {
    /// Runs a tool and throws with its stderr when it fails.
    static func run(_ tool: String, _ args: [String], cwd: URL? = nil) throws {
        let result = try CLI.run(tool, args, cwd: cwd)
        guard result.status == 0 else { throw ServeFailure("\(tool) \(args.prefix(4)): \(result.stderr)") }
    }

    /// `count` different JPEGs `prefix-000.jpg`… in `folder`: tiles of one plasma image (one ImageMagick run).
    static func distinctJPEGs(count: Int, in folder: String, prefix: String = "p") throws {
        let columns = 40, rows = (count + columns - 1) / columns
        try run(
            "convert",
            [
                "-size", "\(columns * 50)x\(rows * 40)", "plasma:", "-crop", "50x40", "+repage",
                "-quality", "85", "\(folder)/\(prefix)-%03d.jpg",
            ])
    }

    /// A 60-megapixel PNG, written streaming by vips (small on disk, honest dimensions).
    static func sixtyMegapixelPNG(_ path: String) throws {
        try run("vips", ["black", path, "10000", "6000", "--bands", "3"])
    }

    /// A PNG with valid chunk CRCs declaring 100000×100000 pixels in about 60 bytes.
    static func pngBomb(_ path: String) throws {
        try run(
            "python3",
            [
                "-c",
                """
                import struct, sys, zlib
                def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
                png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 100000, 100000, 8, 0, 0, 0, 0))
                png += chunk(b'IDAT', zlib.compress(b'')) + chunk(b'IEND', b'')
                open(sys.argv[1], 'wb').write(png)
                """, path,
            ])
    }

    /// For each .pkpass: its per-record image entries' PNG sizes (read from IHDR), whether each is stored
    /// uncompressed, its manifest SHA-1s, and whether every manifest hash matches its entry (python3 zipfile).
    static func inspect(
        _ pkpasses: [String], images: [String] = ["thumbnail.png", "thumbnail@2x.png", "thumbnail@3x.png"]
    )
        throws -> [[String: Any]]
    {
        let listFile = NSTemporaryDirectory() + "passmint-inspect-\(UUID().uuidString).txt"
        try pkpasses.joined(separator: "\n").write(toFile: listFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: listFile) }
        let result = try CLI.run(
            "python3",
            [
                "-c",
                """
                import hashlib, json, struct, sys, zipfile
                names = sys.argv[2].split(',')
                for path in open(sys.argv[1]).read().split('\\n'):
                    z = zipfile.ZipFile(path)
                    manifest = json.loads(z.read('manifest.json'))
                    out = {'file': path, 'sizes': {}, 'stored': {}, 'sha1': {},
                           'manifestOK': all(hashlib.sha1(z.read(n)).hexdigest() == h for n, h in manifest.items())}
                    for n in names:
                        if n not in z.namelist(): continue
                        b = z.read(n)
                        w, h = struct.unpack('>II', b[16:24]) if b[:8] == b'\\x89PNG\\r\\n\\x1a\\n' else (0, 0)
                        out['sizes'][n] = '%dx%d' % (w, h)
                        out['stored'][n] = z.getinfo(n).compress_type == zipfile.ZIP_STORED
                        out['sha1'][n] = manifest.get(n)
                    print(json.dumps(out))
                """, listFile, images.joined(separator: ","),
            ])
        guard result.status == 0 else { throw ServeFailure("inspecting passes: \(result.stderr)") }
        return try result.stdout.split(separator: "\n").map {
            guard let object = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] else {
                throw ServeFailure("not JSON: \($0)")
            }
            return object
        }
    }

    static let thumbnailSizes = [
        "thumbnail.png": "90x90", "thumbnail@2x.png": "180x180", "thumbnail@3x.png": "270x270",
    ]
}
