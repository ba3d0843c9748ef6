import PassTemplates

/// A template's images are held to the limits of member photos (`PhotoLimits.checkHeader`, from each file's size
/// and header, before anything decodes it): every pass issued from the template carries them to every phone, so a
/// decompression bomb in `icon.png` must stop the template, not ship.
enum TemplateImages {
    /// Checks every file of `template` that is a PNG or JPEG by its content (whatever its name).
    /// - Throws: `PassMintError.photo` naming the file (`TEMPLATE/icon.png`).
    static func check(_ template: Template, limits: PhotoLimits = .standard) throws(PassMintError) {
        for file in template.packedFiles where file.bytes.count > limits.maxFileBytes || ImageHeader(file.bytes) != nil
        {
            do {
                _ = try limits.checkHeader(file.bytes, file: template.directory + "/" + file.path)
            } catch {
                throw .photo(error)
            }
        }
    }
}
