// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "parley",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "parley", targets: ["Parley"]),
        // For the benchmark programs (Benchmarks/, a package of their own).
        .library(name: "ParleyFiles", targets: ["ParleyFiles"]),
        .library(name: "CurlHTTP", targets: ["CurlHTTP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // The owner of every task that outlives the call starting it: logged failures, bounded
        // waiting at shutdown.
        .target(
            name: "OwnedTasks",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // libpq, found through pkg-config; the only C library the database layer needs.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // The libpq wrapper: connections, parameterised queries, pool, migrations.
        .target(
            name: "Postgres",
            dependencies: [
                "CLibPQ", "OwnedTasks",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Encodings that know no domain: the JSON writer, hex, base64url, Unicode normalization.
        .target(name: "ByteCoding"),
        // Domain values, errors, validation and permission rules. No I/O.
        .target(
            name: "ParleyCore",
            dependencies: [
                "ByteCoding",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // All SQL of the project: one repository per aggregate.
        .target(
            name: "ParleyStore",
            dependencies: ["ParleyCore", "Postgres", .product(name: "Logging", package: "swift-log")]
        ),
        // Users, their metadata, session tokens and the authentication of callers (API.md §2, §1.7).
        .target(
            name: "ParleyUsers",
            dependencies: [
                "ParleyCore", "ParleyStore",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Bans, mutes, the audit log (API.md §7): answers whether a user may join, enter or send.
        .target(
            name: "ParleyModeration",
            dependencies: ["ParleyCore", "ParleyStore"]
        ),
        // Group channels and membership (API.md §3): the rules, each method taking the acting caller first.
        .target(
            name: "ParleyChat",
            dependencies: ["OwnedTasks", "ParleyCore", "ParleyFiles", "ParleyStore", "ParleyModeration", "ParleyTranslation", "ParleyLinkPreviews"]
        ),
        // libvips, found through pkg-config: decodes and thumbnails images.
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        // Non-variadic wrappers over libvips whose header has only standard C types, so that
        // glib and vips stay out of Swift.
        .target(
            name: "CVipsShim",
            dependencies: ["CVips"]
        ),
        // Uploaded files (API.md §5): encryption at rest, storage, auth keys, thumbnails.
        .target(
            name: "ParleyFiles",
            dependencies: [
                "ByteCoding", "ParleyCore", "ParleyStore", "CVipsShim",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The realtime event stream (API.md §6): the event log's readers, fan-out across
        // instances over LISTEN/NOTIFY, presence and typing. The socket itself is ParleyHTTP's.
        .target(
            name: "ParleyEvents",
            dependencies: [
                "OwnedTasks",
                "ParleyCore", "ParleyStore", "Postgres",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // libcurl, found through pkg-config, with typed wrappers over its variadic calls.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // Which outbound requests may leave the server (API.md §11.2): URL and address rules,
        // the resolver, trusted networks. Policy only; CurlHTTP and the HTTP side both use it.
        .target(name: "OutboundPolicy"),
        // Outbound HTTP over libcurl's multi interface; the only importer of CCurl.
        .target(
            name: "CurlHTTP",
            dependencies: ["CCurl", "OutboundPolicy"]
        ),
        // The translation adapter (API.md §9): providers over CurlHTTP, retries, the breaker.
        .target(
            name: "ParleyTranslation",
            dependencies: ["OwnedTasks", "ParleyCore", "CurlHTTP", .product(name: "Metrics", package: "swift-metrics")]
        ),
        // Link previews (API.md §11.1): the head scanner and the guarded fetch.
        .target(
            name: "ParleyLinkPreviews",
            dependencies: [
                "ParleyCore", "ParleyStore", "CurlHTTP", "OutboundPolicy",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Webhooks (API.md §10): the delivery queue's dispatcher, signatures, Sendbird's payloads.
        .target(
            name: "ParleyWebhooks",
            dependencies: [
                "ByteCoding", "ParleyCore", "ParleyStore", "CurlHTTP", "OutboundPolicy",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Push notifications (API.md §12): device tokens, preferences, and their delivery.
        .target(
            name: "ParleyPush",
            dependencies: [
                "ParleyCore", "ParleyStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Configuration and the dependency container: the one place implementations are chosen.
        .target(
            name: "ParleyContainer",
            dependencies: [
                "ParleyPush",
                "OwnedTasks",
                "ParleyCore", "ParleyStore", "ParleyUsers", "ParleyChat", "ParleyModeration", "ParleyFiles", "ParleyEvents", "Postgres",
                "ParleyTranslation", "ParleyWebhooks", "ParleyLinkPreviews", "CurlHTTP", "OutboundPolicy", "HTTPWire",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The HTTP/1 and WebSocket pieces that know no domain: byte parsers, connection
        // deadlines, the guarded HTTP/1 channel with one WebSocket endpoint, frame rules, batched writes.
        .target(
            name: "HTTPWire",
            dependencies: [
                "ByteCoding",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // How every request is read, authenticated and answered (API.md §1): the request
        // context, JSON in and out, checked fields, errors, request ids, logs and metrics.
        .target(
            name: "ParleyHTTPConventions",
            dependencies: [
                "OwnedTasks",
                "ByteCoding", "HTTPWire", "OutboundPolicy", "ParleyCore", "ParleyRepresentations", "ParleyUsers",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The JSON shape of each resource (user, channel, member, message, file, restriction) and
        // the file links in it, as REST answers and event frames both show them.
        .target(
            name: "ParleyRepresentations",
            dependencies: ["ByteCoding", "ParleyCore", "ParleyFiles", "ParleyModeration", "ParleyUsers"]
        ),
        // The WebSocket event stream (API.md §6.1): authentication inside the socket, the
        // client's frames, event frames and the socket's byte-bounded backlog.
        .target(
            name: "ParleyEventStream",
            dependencies: [
                "OwnedTasks",
                "ByteCoding", "HTTPWire", "ParleyChat", "ParleyCore", "ParleyEvents", "ParleyHTTPConventions", "ParleyRepresentations",
                "ParleyUsers",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // The routes and controllers, in folders by resource, each with its request and
        // response types; `Application+build` assembles the server.
        .target(
            name: "ParleyHTTP",
            dependencies: [
                "ParleyPush",
                "ByteCoding", "HTTPWire", "ParleyCore", "ParleyContainer", "ParleyEventStream", "ParleyHTTPConventions", "ParleyRepresentations",
                "ParleyUsers",
                "ParleyChat", "ParleyModeration", "ParleyFiles", "ParleyEvents", "ParleyWebhooks",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The `parley` command: serve, migrate.
        .executableTarget(
            name: "Parley",
            dependencies: [
                "ByteCoding", "ParleyContainer", "ParleyCore", "ParleyFiles", "ParleyHTTP", "ParleyUsers", "Postgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .testTarget(
            name: "PostgresTests",
            // ParleyStore for the store's transaction mechanics (after-commit work, retries).
            dependencies: ["Postgres", "ParleyStore", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "CurlHTTPTests",
            dependencies: [
                "CurlHTTP", "OutboundPolicy",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The rules and mechanisms that need no database, in seconds.
        .testTarget(
            name: "UnitTests",
            dependencies: [
                "ByteCoding", "HTTPWire", "OutboundPolicy", "OwnedTasks", "ParleyCore", "ParleyEvents", "ParleyHTTPConventions",
                "ParleyStore", "ParleyTranslation", "ParleyWebhooks", "Postgres",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "SystemTests",
            dependencies: [
                "OwnedTasks", .product(name: "Logging", package: "swift-log"),
                "ParleyHTTP", "HTTPWire", "ParleyContainer", "ParleyEvents", "ParleyCore", "ParleyFiles", "ParleyTranslation", "ParleyLinkPreviews", "ParleyWebhooks", "CurlHTTP",
                "Postgres", .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
