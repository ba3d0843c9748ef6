// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "PassMint",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "passmint", targets: ["passmint"]),
        // Build, sign and verify passes: OpenSSL, libzip and libdeflate only (what a Vapor or Hummingbird app links).
        .library(name: "PassMint", targets: ["PassMint"]),
        // Member photos scaled with libvips; `PassFactory.issuer(…, photos: PhotoScaler())` plugs them in.
        .library(name: "PassPhotos", targets: ["PassPhotos"]),
        // HTML and PNG previews (libzint barcodes, Chromium) and the design lint, photos included.
        .library(name: "PassPreview", targets: ["PassPreview"]),
        // The update service in process (`WalletService.respond(to:)`), for packages built beside this one:
        // Fuzz/ drives the router with it through `@testable` imports (the service's API is `package`, not public).
        // A product only names the target; it builds nothing extra.
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

        // Libraries, layered bottom-up in the order of README.md's Layout section (scripts/check-layers checks
        // every import against it and against these dependency lists).
        .target(name: "PassModel"),
        .target(name: "PassConcurrency"),
        .target(name: "PassLog"),
        .target(name: "PassTemplates", dependencies: ["PassModel"]),
        .target(name: "PassSigning", dependencies: ["COpenSSL", "PassModel"]),
        .target(name: "PassArchive", dependencies: ["CZip", "CDeflate", "PassModel"]),
        .target(name: "PassMint", dependencies: ["PassModel", "PassTemplates", "PassSigning", "PassArchive"]),
        .target(name: "PassPhotos", dependencies: ["CVips", "PassModel", "PassTemplates", "PassMint"]),
        .target(
            name: "PassPreview",
            dependencies: [
                "CZint", "CDeflate", "PassModel", "PassTemplates", "PassArchive", "PassMint", "PassPhotos",
            ]),
        .target(
            name: "PassStore",
            dependencies: [
                "CSQLite", "CPostgreSQL", "PassModel", "PassSigning", "PassMint", "PassConcurrency", "PassLog",
            ]),
        .target(
            name: "PassHTTP",
            dependencies: ["CMicroHTTPD", "PassModel", "PassSigning", "PassArchive", "PassConcurrency", "PassLog"]),
        // libcurl response capture shared by the APNs and Google clients.
        .target(name: "PassCurl", dependencies: ["CCurl"]),
        .target(
            name: "PassPush",
            dependencies: ["CCurl", "PassConcurrency", "PassCurl", "PassLog", "PassSigning", "PassStore"]),
        // Google Wallet: mapping a template's passes to classes and objects, save-link JWTs, the service-account
        // identity (offline); the Wallet API client, its outbox and callbacks (online).
        .target(
            name: "PassGoogle",
            dependencies: [
                "CCurl", "COpenSSL", "PassModel", "PassTemplates", "PassSigning", "PassMint", "PassStore",
                "PassConcurrency", "PassCurl",
            ]),
        .target(
            name: "PassOperations",
            dependencies: [
                "PassModel", "PassTemplates", "PassSigning", "PassArchive", "PassMint", "PassLog", "PassStore",
                "PassGoogle",
            ]),
        .target(
            name: "PassService",
            dependencies: [
                "PassModel", "PassTemplates", "PassArchive", "PassMint", "PassPreview", "PassConcurrency", "PassLog",
                "PassStore", "PassHTTP", "PassPush", "PassGoogle", "PassOperations",
            ]),
        .target(
            name: "PassServer",
            dependencies: [
                "PassSigning", "PassMint", "PassPhotos", "PassLog", "PassStore", "PassHTTP", "PassPush", "PassGoogle",
                "PassOperations", "PassService",
            ]),
        .executableTarget(
            name: "passmint",
            dependencies: [
                "PassModel", "PassTemplates", "PassSigning", "PassArchive", "PassMint", "PassPhotos", "PassPreview",
                "PassStore", "PassHTTP", "PassGoogle", "PassOperations", "PassService", "PassServer",
            ]),

        // Tests mirror targets; shared test helpers (temporary folders, fixtures, the binary, a dev identity, store
        // fixtures of both backends).
        .target(
            name: "PassMintTestSupport", dependencies: ["PassSigning", "PassArchive", "PassStore"],
            path: "Tests/PassMintTestSupport"),
        .testTarget(name: "PassModelTests", dependencies: ["PassModel", "PassMintTestSupport"]),
        .testTarget(name: "PassTemplatesTests", dependencies: ["PassTemplates", "PassMintTestSupport"]),
        .testTarget(name: "PassSigningTests", dependencies: ["PassSigning", "PassMintTestSupport"]),
        .testTarget(name: "PassArchiveTests", dependencies: ["PassArchive", "PassMintTestSupport"]),
        .testTarget(name: "PassMintTests", dependencies: ["PassMint", "PassMintTestSupport"]),
        .testTarget(name: "PassPhotosTests", dependencies: ["PassPhotos", "PassMintTestSupport"]),
        .testTarget(name: "PassPreviewTests", dependencies: ["PassPreview", "PassMintTestSupport"]),
        .testTarget(name: "PassStoreTests", dependencies: ["PassStore", "PassMintTestSupport"]),
        .testTarget(name: "PassHTTPTests", dependencies: ["PassHTTP", "PassMintTestSupport"]),
        .testTarget(
            name: "PassPushTests", dependencies: ["PassPush", "PassMintTestSupport"], exclude: ["PushTestServer.py"]),
        .testTarget(name: "PassGoogleTests", dependencies: ["PassGoogle", "PassMintTestSupport"]),
        .testTarget(name: "PassOperationsTests", dependencies: ["PassOperations", "PassMintTestSupport"]),
        .testTarget(name: "PassServiceTests", dependencies: ["PassService", "PassMintTestSupport"]),
        .testTarget(name: "PassServerTests", dependencies: ["PassServer", "PassMintTestSupport"]),
        .testTarget(
            name: "passmintTests", dependencies: ["passmint", "PassMintTestSupport"],
            exclude: ["WalletDeviceSimulator.py", "SlowClients.py", "BigUploads.py", "HelpSnapshots"]),
    ],
    swiftLanguageModes: [.v6]
)
