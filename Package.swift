// swift-tools-version:6.1
import PackageDescription

// The products of other packages the targets use.
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
let crypto: Target.Dependency = .product(name: "Crypto", package: "swift-crypto")
let cryptoExtras: Target.Dependency = .product(name: "_CryptoExtras", package: "swift-crypto")
let dequeModule: Target.Dependency = .product(name: "DequeModule", package: "swift-collections")
let httpTypes: Target.Dependency = .product(name: "HTTPTypes", package: "swift-http-types")
let hummingbird: Target.Dependency = .product(name: "Hummingbird", package: "hummingbird")
let hummingbirdCore: Target.Dependency = .product(name: "HummingbirdCore", package: "hummingbird")
let hummingbirdTesting: Target.Dependency = .product(name: "HummingbirdTesting", package: "hummingbird")
let hummingbirdWSClient: Target.Dependency = .product(name: "HummingbirdWSClient", package: "hummingbird-websocket")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let metrics: Target.Dependency = .product(name: "Metrics", package: "swift-metrics")
let nioCore: Target.Dependency = .product(name: "NIOCore", package: "swift-nio")
let nioPosix: Target.Dependency = .product(name: "NIOPosix", package: "swift-nio")
let nioWebSocket: Target.Dependency = .product(name: "NIOWebSocket", package: "swift-nio")
let nioHTTP1: Target.Dependency = .product(name: "NIOHTTP1", package: "swift-nio")
let nioHTTPTypes: Target.Dependency = .product(name: "NIOHTTPTypes", package: "swift-nio-extras")
let nioHTTPTypesHTTP1: Target.Dependency = .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras")
let prometheus: Target.Dependency = .product(name: "Prometheus", package: "swift-prometheus")
let serviceLifecycle: Target.Dependency = .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let tracing: Target.Dependency = .product(name: "Tracing", package: "swift-distributed-tracing")
let otel: Target.Dependency = .product(name: "OTel", package: "swift-otel")

let package = Package(
    name: "parley",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "parley", targets: ["Parley"]),
        // For the benchmark programs (Benchmarks/, a package of their own).
        .library(name: "ParleyFiles", targets: ["ParleyFiles"]),
        .library(name: "CurlHTTP", targets: ["CurlHTTP"])
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
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // Traces only, over OTLP/HTTP (the gRPC exporter's packages are not built).
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"])
    ],
    targets: [
        // The owner of every task that outlives the call starting it: logged failures, bounded
        // waiting at shutdown.
        .target(name: "OwnedTasks", dependencies: [logging, serviceLifecycle]),
        // libpq, found through pkg-config; the only C library the database layer needs.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // The libpq wrapper: connections, parameterised queries, pool, migrations.
        .target(
            name: "Postgres",
            dependencies: ["CLibPQ", "OwnedTasks", dequeModule, logging, metrics, nioCore, nioPosix, serviceLifecycle, tracing]
        ),
        // Spans only inside a recorded trace (issue 37): the gate every traced layer asks.
        .target(name: "Traced", dependencies: [tracing]),
        // Encodings that know no domain: the JSON writer, hex, base64url, Unicode normalization.
        .target(name: "ByteCoding"),
        // Domain values, errors, validation and permission rules. No I/O.
        .target(name: "ParleyCore", dependencies: ["ByteCoding", crypto]),
        // All SQL of the project: one repository per aggregate.
        .target(
            name: "ParleyStore",
            dependencies: ["ByteCoding", "ParleyCore", "Postgres", "Traced", dequeModule, logging, metrics, serviceLifecycle, tracing]),
        // Users, their metadata, session tokens and the authentication of callers (API.md §2, §1.7).
        .target(name: "ParleyUsers", dependencies: ["ParleyCore", "ParleyStore", "OutboundPolicy", crypto]),
        // Bans, mutes, the audit log (API.md §7): answers whether a user may join, enter or send.
        .target(name: "ParleyModeration", dependencies: ["ParleyCore", "ParleyStore", logging]),
        // Administration and compliance (API.md §14): background jobs leased in PostgreSQL, GDPR requests.
        .target(
            name: "ParleyCompliance",
            dependencies: [
                "ByteCoding", "OwnedTasks", "ParleyCore", "ParleyStore", "ParleyChat", "ParleyFiles", "ParleyUsers", crypto, logging,
                metrics, serviceLifecycle
            ]
        ),
        // Bots (API.md §14.8): users with a callback URL; their deliveries are the webhook queue's.
        .target(
            name: "ParleyBots", dependencies: ["OutboundPolicy", "ParleyChat", "ParleyCore", "ParleyStore", "ParleyUsers", "ParleyWebhooks"]
        ),
        // Group channels and membership (API.md §3): the rules, each method taking the acting caller first.
        .target(
            name: "ParleyChat",
            dependencies: [
                "OwnedTasks", "ParleyCore", "ParleyFiles", "ParleyStore", "ParleyModeration", "ParleyTranslation", "ParleyLinkPreviews",
                logging, serviceLifecycle
            ]
        ),
        // libvips, found through pkg-config: decodes and thumbnails images.
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        // Non-variadic wrappers over libvips whose header has only standard C types, so that
        // glib and vips stay out of Swift.
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        // Uploaded files (API.md §5): encryption at rest, storage, auth keys, thumbnails.
        .target(
            name: "ParleyFiles",
            dependencies: [
                "ByteCoding", "ParleyCore", "ParleyStore", "CVipsShim", "S3Storage", crypto, nioCore, nioPosix, logging, metrics,
                serviceLifecycle
            ]
        ),
        // The realtime event stream (API.md §6): the event log's readers, fan-out across
        // instances over LISTEN/NOTIFY, presence and typing. The socket itself is ParleyHTTP's.
        .target(
            name: "ParleyEvents",
            dependencies: ["OwnedTasks", "ParleyCore", "ParleyStore", "Postgres", "Traced", logging, metrics, serviceLifecycle]
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
        .target(name: "CurlHTTP", dependencies: ["CCurl", "OutboundPolicy", "Traced", tracing]),
        // S3-compatible object storage over CurlHTTP: Signature V4, objects and multipart uploads.
        .target(name: "S3Storage", dependencies: ["CurlHTTP", crypto]),
        // The translation adapter (API.md §9): providers over CurlHTTP, retries, the breaker.
        .target(name: "ParleyTranslation", dependencies: ["OwnedTasks", "ParleyCore", "CurlHTTP", metrics]),
        // Link previews (API.md §11.1): the head scanner and the guarded fetch.
        .target(
            name: "ParleyLinkPreviews",
            dependencies: ["ParleyCore", "ParleyStore", "CurlHTTP", "OutboundPolicy", logging, metrics, serviceLifecycle]),
        // Webhooks (API.md §10): the delivery queue's dispatcher, signatures, Sendbird's payloads.
        .target(
            name: "ParleyWebhooks",
            dependencies: [
                "ByteCoding", "ParleyCore", "ParleyStore", "CurlHTTP", "OutboundPolicy", "Traced", crypto, logging, metrics,
                serviceLifecycle
            ]
        ),
        // Push notifications (API.md §12): device tokens, preferences, and their delivery.
        .target(
            name: "ParleyPush",
            dependencies: [
                "ByteCoding", "ParleyCore", "ParleyStore", "ParleyFiles", "CurlHTTP", "OutboundPolicy", crypto,
                cryptoExtras, "Traced", logging, metrics, serviceLifecycle
            ]
        ),
        // Configuration and the dependency container: the one place implementations are chosen.
        .target(
            name: "ParleyContainer",
            dependencies: [
                "ParleyPush", "ParleyCompliance", "ParleyBots", "OwnedTasks", "ParleyCore", "ParleyStore", "ParleyUsers", "ParleyChat",
                "ParleyModeration", "ParleyFiles", "ParleyEvents", "Postgres", "ParleyTranslation", "ParleyWebhooks",
                "ParleyLinkPreviews", "CurlHTTP", "OutboundPolicy", "HTTPWire", "S3Storage", crypto, logging, prometheus,
                serviceLifecycle
            ]
        ),
        // The HTTP/1 and WebSocket pieces that know no domain: byte parsers, connection
        // deadlines, the guarded HTTP/1 channel with one WebSocket endpoint, frame rules, batched writes.
        .target(
            name: "HTTPWire",
            dependencies: [
                "ByteCoding", httpTypes, hummingbird, hummingbirdCore, logging, nioCore, nioHTTP1, nioHTTPTypes,
                nioHTTPTypesHTTP1, nioWebSocket
            ]
        ),
        // How every request is read, authenticated and answered (API.md §1): the request
        // context, JSON in and out, checked fields, errors, request ids, logs and metrics.
        .target(
            name: "ParleyHTTPConventions",
            dependencies: [
                "OwnedTasks", "ByteCoding", "HTTPWire", "OutboundPolicy", "ParleyCore", "ParleyRepresentations",
                "ParleyUsers", "Traced", httpTypes, hummingbird, logging, metrics, nioCore, nioHTTP1, tracing
            ]
        ),
        // The JSON shape of each resource (user, channel, member, message, file, restriction) and
        // the file links in it, as REST answers and event frames both show them.
        .target(
            name: "ParleyRepresentations", dependencies: ["ByteCoding", "ParleyCore", "ParleyFiles", "ParleyModeration", "ParleyUsers"]),
        // The WebSocket event stream (API.md §6.1): authentication inside the socket, the
        // client's frames, event frames and the socket's byte-bounded backlog.
        .target(
            name: "ParleyEventStream",
            dependencies: [
                "OwnedTasks", "ByteCoding", "HTTPWire", "ParleyChat", "ParleyCore", "ParleyEvents",
                "ParleyHTTPConventions", "ParleyRepresentations", "ParleyUsers", httpTypes, hummingbird, logging,
                nioCore, nioHTTP1, nioWebSocket
            ]
        ),
        // The routes and controllers, in folders by resource, each with its request and
        // response types; `Application+build` assembles the server.
        .target(
            name: "ParleyHTTP",
            dependencies: [
                "ParleyPush", "ParleyCompliance", "ParleyBots", "ByteCoding", "HTTPWire", "ParleyCore", "ParleyContainer",
                "ParleyEventStream", "ParleyHTTPConventions", "ParleyRepresentations", "ParleyUsers", "ParleyChat", "ParleyModeration",
                "ParleyFiles", "ParleyEvents", "ParleyWebhooks", httpTypes, hummingbird, nioCore, prometheus, serviceLifecycle
            ]
        ),
        // The `parley` command: serve, migrate.
        .executableTarget(
            name: "Parley",
            dependencies: [
                "ByteCoding", "CurlHTTP", "ParleyContainer", "ParleyCore", "ParleyFiles", "ParleyHTTP", "ParleyUsers", "Postgres",
                "S3Storage", "Traced", argumentParser, hummingbird, logging, metrics, otel, prometheus, serviceLifecycle
            ]
        ),
        .testTarget(
            name: "PostgresTests",
            // ParleyStore for the store's transaction mechanics (after-commit work, retries).
            dependencies: ["Postgres", "ParleyCore", "ParleyStore", logging]
        ),
        .testTarget(
            name: "CurlHTTPTests",
            dependencies: ["CurlHTTP", "OutboundPolicy", hummingbird, hummingbirdTesting, httpTypes, nioCore]
        ),
        // The rules and mechanisms that need no database, in seconds.
        .testTarget(
            name: "UnitTests",
            dependencies: [
                "ByteCoding", "CurlHTTP", "HTTPWire", "OutboundPolicy", "OwnedTasks", "ParleyCore", "ParleyEvents",
                "ParleyHTTP", "ParleyHTTPConventions", "ParleyLinkPreviews", "ParleyPush", "ParleyStore", "ParleyTranslation",
                "ParleyWebhooks", "Postgres", "S3Storage", "Traced", crypto, logging, httpTypes, nioCore
            ]
        ),
        .testTarget(
            name: "SystemTests",
            dependencies: [
                "ByteCoding", "OwnedTasks", logging, "ParleyHTTP", "HTTPWire", "ParleyContainer", "ParleyEvents",
                "ParleyCore", "ParleyFiles", "ParleyTranslation", "ParleyLinkPreviews", "ParleyPush", "CurlHTTP", "OutboundPolicy",
                "Postgres", "S3Storage", httpTypes, hummingbirdWSClient, nioCore, nioWebSocket, hummingbird, hummingbirdTesting, crypto
            ],
            // The push providers' and S3's stand-ins, Python programs the tests start.
            exclude: ["Push/StandIn", "Files/s3_standin.py"]
        )
    ],
    swiftLanguageModes: [.v6]
)
