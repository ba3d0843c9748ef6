// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "PassMint",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "passmint", targets: ["passmint"]),
        .library(name: "PassMint", targets: ["PassMint"]),
        // The update service in process (`WalletService.respond(to:)`), for packages built beside this one:
        // Fuzz/ drives the router with it. A product only names the target; it builds nothing extra.
        .library(name: "PassService", targets: ["PassService"]),
    ],
    targets: [
        // System libraries (Debian -dev packages). Shims only.
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CPostgreSQL", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // Debian's libzint-dev has no .pc file: the modulemap links "zint" by name.
        .systemLibrary(name: "CZint", providers: [.apt(["libzint-dev"])]),
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),

        // Libraries, layered bottom-up.
        .target(name: "PassModel"),
        .target(name: "PassTemplates", dependencies: ["PassModel"]),
        .target(name: "PassSigning", dependencies: ["COpenSSL", "PassModel"]),
        .target(name: "PassArchive", dependencies: ["CZip", "CDeflate", "PassModel"]),
        .target(
            name: "PassMint",
            dependencies: ["PassModel", "PassTemplates", "PassSigning", "PassArchive", "CVips", "CZint", "CDeflate"]),
        .target(
            name: "PassService",
            dependencies: ["PassMint", "CSQLite", "CPostgreSQL", "CMicroHTTPD", "CCurl", "COpenSSL"]),
        .executableTarget(name: "passmint", dependencies: ["PassMint", "PassService"]),

        // Tests mirror targets; shared test helpers (temporary folders, fixtures, the binary, a dev identity).
        .target(name: "PassMintTestSupport", dependencies: ["PassSigning"], path: "Tests/PassMintTestSupport"),
        .testTarget(name: "PassModelTests", dependencies: ["PassModel", "PassMintTestSupport"]),
        .testTarget(name: "PassTemplatesTests", dependencies: ["PassTemplates", "PassMintTestSupport"]),
        .testTarget(name: "PassSigningTests", dependencies: ["PassSigning", "PassMintTestSupport"]),
        .testTarget(name: "PassArchiveTests", dependencies: ["PassArchive", "PassMintTestSupport"]),
        .testTarget(name: "PassMintTests", dependencies: ["PassMint", "PassMintTestSupport"]),
        .testTarget(
            name: "PassServiceTests", dependencies: ["PassService", "PassMintTestSupport"],
            exclude: ["PushTestServer.py"]),
        .testTarget(
            name: "passmintTests", dependencies: ["passmint", "PassMintTestSupport"],
            exclude: ["WalletDeviceSimulator.py", "SlowClients.py", "BigUploads.py", "HelpSnapshots"]),
    ],
    swiftLanguageModes: [.v6]
)
