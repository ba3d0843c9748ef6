import Foundation

/// Headless Chromium, run through `Process` to turn a preview page into a PNG. Each run gets its own temporary
/// folder (page, profile) that is removed on every exit, so runs can go in parallel.
public struct Chromium: Sendable {
    /// The browser binary.
    public let executable: String

    /// The names looked up on `PATH`, after `$PASSMINT_CHROMIUM`.
    static let names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

    /// Uses `executable` as the browser.
    public init(executable: String) { self.executable = executable }

    /// Finds the browser: `$PASSMINT_CHROMIUM`, else `chromium` (or Chrome) on `PATH`.
    /// - Throws: `PreviewError.environment` saying what to install.
    public static func find() throws(PreviewError) -> Chromium {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["PASSMINT_CHROMIUM"], !given.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: given) else {
                throw .environment(.chromiumNotExecutable(given))
            }
            return Chromium(executable: given)
        }
        for dir in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            for name in names where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
                return Chromium(executable: "\(dir)/\(name)")
            }
        }
        throw .environment(.chromiumMissing)
    }

    /// Screenshots `document` at 3x into `path`.
    public func screenshot(_ document: PreviewDocument, to path: String) throws(PreviewError) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var height = document.height
        if document.measure {
            // The back's height depends on its text: ask the browser for the laid-out height first.
            let probe = PreviewPage.probe(
                document.html,
                script: "document.body.setAttribute('data-height',Math.ceil(document.documentElement.scrollHeight))")
            try folder.write("measure.html", probe)
            let dom = try run(["--dump-dom", "file://\(folder.path)/measure.html"], folder: folder)
            if let range = dom.range(of: "data-height=\""),
                let measured = Int(dom[range.upperBound...].prefix { $0.isNumber })
            {
                height = max(height, measured)
            }
        }
        try folder.write("page.html", document.html)
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let shot = folder.path + "/shot.png"
        _ = try run(
            [
                "--hide-scrollbars", "--force-device-scale-factor=3", "--window-size=\(document.width),\(height)",
                "--screenshot=\(shot)", "file://\(folder.path)/page.html",
            ], folder: folder)
        guard FileManager.default.fileExists(atPath: shot) else {
            throw .environment(.noScreenshot(executable: executable))
        }
        try? FileManager.default.removeItem(atPath: absolute)
        do {
            try FileManager.default.moveItem(atPath: shot, toPath: absolute)
        } catch {
            throw .output(file: path, .fileSystem(underlying: error))
        }
    }

    /// Dumps the DOM of `document` after the browser has loaded it (tests check fields' text and places).
    public func dumpDOM(_ document: PreviewDocument) throws(PreviewError) -> String {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("page.html", document.html)
        return try run(["--dump-dom", "file://\(folder.path)/page.html"], folder: folder)
    }

    /// Runs the browser headless with its own profile in `folder`; returns stdout.
    func run(_ arguments: [String], folder: TemporaryFolder) throws(PreviewError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--user-data-dir=\(folder.path)/profile",
            ] + arguments
        let out = Pipe()
        let err = FileHandle(forWritingAtPath: "/dev/null")
        process.standardOutput = out
        process.standardError = err
        do {
            try process.run()
        } catch {
            throw .environment(.chromiumUnstartable(executable: executable, underlying: error))
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .environment(.chromiumFailed(executable: executable, status: process.terminationStatus))
        }
        return String(decoding: data, as: UTF8.self)
    }
}
