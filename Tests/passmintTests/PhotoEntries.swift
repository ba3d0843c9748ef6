import Foundation

/// An independent reader of the image entries of passes (python3 zipfile): what the photo tests check the
/// passes with. The photos themselves come from `TestPhotos`.
enum PhotoEntries {
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
