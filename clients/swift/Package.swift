// swift-tools-version: 6.0
import PackageDescription

// ParleyKit: the client SDK for Swift apps (iOS, macOS, Linux). Its own package, so that an app
// depends on it without the server. Foundation only on Apple platforms; on Linux, whose
// URLSession has no WebSocket, a SwiftNIO WebSocket client (swift-websocket's WSClient).
let linux = TargetDependencyCondition.when(platforms: [Platform.linux])

let package = Package(
    name: "ParleyKit",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "ParleyKit", targets: ["ParleyKit"]),
        .executable(name: "parley-chat", targets: ["ParleyChatExample"])
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0")
    ],
    targets: [
        .target(
            name: "ParleyKit",
            dependencies: [
                .product(name: "WSClient", package: "swift-websocket", condition: linux),
                .product(name: "Logging", package: "swift-log", condition: linux),
                .product(name: "NIOCore", package: "swift-nio", condition: linux),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: linux)
            ]
        ),
        .executableTarget(name: "ParleyChatExample", dependencies: ["ParleyKit"], path: "Examples/parley-chat"),
        .testTarget(name: "ParleyKitTests", dependencies: ["ParleyKit"])
    ]
)
