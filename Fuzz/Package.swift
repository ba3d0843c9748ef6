// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for PassMint's input readers. A package of its own so that the main package builds and tests
// exactly as before: nothing here is compiled by `swift build` / `swift test` at the top level.
//
// Build (Benchmarks/fuzz does this): the sanitizer flags are given on the command line, not as unsafeFlags here,
// so that they reach every module of the main package too: coverage has to come from the code under test.
//   swift build -c release -Xswiftc -g -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing \
//     -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld --product FuzzJSON
let package = Package(
    name: "PassMintFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "PassMint", path: "..")],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(
            name: "FuzzCSV",
            dependencies: [
                "FuzzSupport", .product(name: "PassMint", package: "PassMint"),
            ]),
        .executableTarget(
            name: "FuzzJSON",
            dependencies: [
                "FuzzSupport", .product(name: "PassMint", package: "PassMint"),
            ]),
        .executableTarget(
            name: "FuzzTemplate",
            dependencies: [
                "FuzzSupport", .product(name: "PassMint", package: "PassMint"),
            ]),
        .executableTarget(
            name: "FuzzArchive",
            dependencies: [
                "FuzzSupport", .product(name: "PassMint", package: "PassMint"),
            ]),
        .executableTarget(
            name: "FuzzHTTP",
            dependencies: [
                "FuzzSupport", .product(name: "PassService", package: "PassMint"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
