// swift-tools-version:6.1
// The benchmark programs of scripts/bench/, a package of their own so that building the server
// never compiles them. They use the server's libraries through the package one folder up.
import PackageDescription

let package = Package(
    name: "parley-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "parley", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // In-process measurements for scripts/bench/files (build with -c release).
        .executableTarget(
            name: "parley-file-bench",
            dependencies: [.product(name: "ParleyFiles", package: "parley")],
            path: "FileBench"
        ),
        // CurlHTTP's request rate for scripts/bench/translation (build with -c release).
        .executableTarget(
            name: "parley-curl-bench",
            dependencies: [.product(name: "CurlHTTP", package: "parley")],
            path: "CurlBench"
        ),
        // The event-stream load client of scripts/bench/events (build with -c release).
        .executableTarget(
            name: "parley-event-load",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "EventLoad"
        ),
    ],
    swiftLanguageModes: [.v6]
)
