// swift-tools-version:6.0
import PackageDescription

// A program that uses PassMint as a library (as a Vapor or Hummingbird app would) instead of running the CLI.
let package = Package(
    name: "issue-one",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "PassMint", path: "../..")],
    targets: [
        .executableTarget(name: "issue-one", dependencies: [.product(name: "PassMint", package: "PassMint")])
    ],
    swiftLanguageModes: [.v6]
)
