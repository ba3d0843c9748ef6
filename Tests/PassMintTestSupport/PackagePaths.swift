import Foundation
import Testing

/// Where the package and the shared fixtures are, computed in one place.
public enum PackagePaths {
    /// The package root (two folders above this file).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `../shared/fixtures` beside the package, nil when absent (tests then skip with `.enabled(if:)`).
    public static let fixtures: URL? = {
        let url = root.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// True when `../shared/fixtures` exists.
    public static var hasFixtures: Bool { fixtures != nil }

    /// Why a test that reads the fixtures is skipped: `.enabled(if: PackagePaths.hasFixtures, PackagePaths.noFixtures)`.
    public static let noFixtures: Comment = "../shared/fixtures is absent"

    /// The path of `relative` inside the fixtures (e.g. `pkpass/apple-sample__Event.pkpass`), nil when absent.
    public static func fixture(_ relative: String) -> String? {
        guard let path = fixtures?.appendingPathComponent(relative).path,
            FileManager.default.fileExists(atPath: path)
        else { return nil }
        return path
    }

    /// A shipped template folder under `Templates/`.
    public static func template(_ name: String) -> String { root.appendingPathComponent("Templates/\(name)").path }
}
