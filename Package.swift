// swift-tools-version:6.2
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release)),
]

let package = Package(
    name: "things2mqtt",
    // Linux only (libdbus, libmosquitto, Glibc, hidraw and RFCOMM sockets): no Apple platform is listed, as none builds.
    products: [
        .executable(name: "things2mqtt", targets: ["things2mqtt"]),
        .executable(name: "things2mqtt-bench", targets: ["things2mqtt-bench"]),
        .executable(name: "things2mqtt-sim", targets: ["things2mqtt-sim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // Without its default traits: `FullFoundation` would bring full Foundation (and ICU) into the daemon, and
        // `ConfigurationSupport` swift-configuration, which the daemon does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // libdbus, linked shared: pkg-config's -ldbus-1 leads SwiftPM's link line, so a later -Bstatic -ldbus-1 would
        // find every symbol already defined by the shared library.
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // libyaml's event parser, which the config's own composer reads (BridgeConfig's YAMLComposer).
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .target(
            name: "Mosquitto",
            dependencies: [
                "CMosquitto",
                "BridgeCore",
                "Support",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        .target(name: "Support", swiftSettings: strictSettings),
        .target(
            name: "DBus",
            dependencies: [
                "CDBus", "Support",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BridgeCore",
            dependencies: ["Support", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BridgeConfig",
            dependencies: [
                "BridgeCore",
                "Support",
                "CYAML",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "embed-web",
            path: "Sources/embed-web",
            swiftSettings: strictSettings
        ),
        .plugin(
            name: "EmbedWeb",
            capability: .buildTool(),
            dependencies: ["embed-web"],
            path: "Sources/EmbedWebPlugin"
        ),
        .target(
            name: "Cluster",
            dependencies: ["BridgeCore"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Bridge",
            dependencies: [
                "BridgeCore",
                "BridgeConfig",
                "Cluster",
                "COpenSSL",
                "Support",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BlueZ",
            dependencies: [
                "DBus", "BLEModels", "Support",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BLEDriver",
            dependencies: [
                "BlueZ", "DBus", "BLEModels", "BLEFormats", "BridgeCore", "BridgeConfig", "Support",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LIFXModels",
            dependencies: ["BridgeCore", "Support"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BLEModels",
            dependencies: ["BridgeCore", "Support"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BLEFormats",
            dependencies: ["BLEModels", "BridgeCore", "COpenSSL", "Support"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "EV3Protocol",
            dependencies: ["Support"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "EV3Link",
            dependencies: [
                "EV3Protocol", "Support",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "EV3Driver",
            dependencies: [
                "EV3Link", "EV3Protocol", "BridgeCore", "BridgeConfig", "Support",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        .target(name: "CSimPTY"),
        .target(
            name: "EV3Simulator",
            dependencies: [
                "EV3Protocol", "CSimPTY", "Support",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LIFXDriver",
            dependencies: [
                "BridgeCore",
                "BridgeConfig",
                "LIFXModels",
                "Support",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LIFXSimulator",
            dependencies: [
                "Support",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Frontend",
            dependencies: [
                "Bridge",
                "BridgeCore",
                "BridgeConfig",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The page's files are compiled in (WebAssets.swift, written at build time by the EmbedWeb plugin), so
            // an installed binary needs no resource folder beside it.
            exclude: ["Web"],
            swiftSettings: strictSettings,
            plugins: ["EmbedWeb"]
        ),
        .target(
            name: "Things2MQTTApp",
            dependencies: [
                "Bridge",
                "BridgeCore",
                "BridgeConfig",
                "Mosquitto",
                "Support",
                "LIFXDriver",
                "BLEDriver",
                "EV3Driver",
                "Frontend",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // The Home Assistant add-on's start: options and the Supervisor's broker in, the bridge's config out.
        .target(
            name: "HomeAssistantAddon",
            dependencies: [
                "BridgeCore",
                "Support",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "things2mqtt",
            dependencies: [
                "Things2MQTTApp",
                "HomeAssistantAddon",
                "BridgeCore",
                "BridgeConfig",
                "Support",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings,
            // The release binary is linked by lld with packed relative relocations (glibc 2.36, Debian 12, reads
            // them): 3 MB of relocations become 26 kB, and start-up no longer reads them all. Nothing looks the
            // daemon's symbols up at run time, so they are not exported either; a crash backtrace shows addresses,
            // which the unstripped binary of the same build resolves.
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
                    ],
                    .when(configuration: .release))
            ]
        ),
        .executableTarget(
            name: "things2mqtt-sim",
            dependencies: [
                "LIFXSimulator",
                "EV3Protocol",
                "EV3Simulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "things2mqtt-bench",
            dependencies: [
                "BLEFormats",
                "Mosquitto",
                "LIFXSimulator",
                "Harness",
                "Bridge",
                "BridgeConfig",
                "BridgeCore",
                "Things2MQTTApp",
                "DBus",
                "EV3Simulator",
                "EV3Protocol",
                "EV3Link",
                "Support",
                "LIFXModels",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The C sender and bare receiver are compiled by the benchmark itself, not linked into it.
            exclude: ["bare"],
            swiftSettings: strictSettings
        ),
        // The real parts the benchmark and the tests run: a mosquitto broker, a private D-Bus with the BlueZ stand-in,
        // the daemon as a process or in process, an MQTT client.
        .target(
            name: "Harness",
            dependencies: [
                "Mosquitto", "BridgeCore", "BridgeConfig", "Things2MQTTApp", "DBus",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                "Harness", "Mosquitto", "LIFXSimulator", "BridgeCore", "Bridge", "BridgeConfig", "Things2MQTTApp", "DBus", "EV3Simulator",
                "EV3Protocol", "LIFXModels", "BLEModels", "EV3Driver",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ClusterTests",
            dependencies: ["Cluster", "BridgeCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SupportTests",
            dependencies: ["Support"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BridgeCoreTests",
            dependencies: [
                "BridgeCore", "BridgeConfig", "Bridge", "Support", "TestSupport", "EV3Protocol", "LIFXModels", "BLEModels",
                "EV3Driver", "LIFXDriver", "BLEDriver", "BLEFormats",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BridgeTests",
            dependencies: [
                "Bridge", "BridgeCore", "BridgeConfig", "TestSupport", "LIFXModels", "BLEModels", "EV3Driver", "Things2MQTTApp",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LIFXTests",
            dependencies: [
                "LIFXModels", "LIFXDriver", "LIFXSimulator", "BridgeCore", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BLEModelsTests",
            dependencies: ["BLEModels", "BridgeCore", "Support", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BLEFormatsTests",
            dependencies: ["BLEFormats", "BLEModels", "BridgeCore", "Support", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BlueZTests",
            dependencies: [
                "BlueZ", "DBus", "BLEModels", "BLEFormats", "BridgeCore", "Support", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DBusTests",
            dependencies: ["DBus", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EV3LinkTests",
            dependencies: [
                "EV3Link", "EV3Simulator", "EV3Protocol", "Support", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EV3DriverTests",
            dependencies: [
                "EV3Driver", "EV3Link", "EV3Protocol", "BridgeCore", "BridgeConfig", "TestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EV3ProtocolTests",
            dependencies: ["EV3Protocol", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HomeAssistantAddonTests",
            dependencies: [
                "HomeAssistantAddon", "TestSupport", "BridgeConfig", "BridgeCore", "Things2MQTTApp",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FrontendTests",
            dependencies: [
                "Frontend", "TestSupport", "Bridge", "BridgeCore", "BridgeConfig", "LIFXSimulator",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "TestSupport", "Mosquitto", "LIFXSimulator", "BridgeCore", "Bridge", "BridgeConfig", "Things2MQTTApp", "DBus",
                "BLEDriver", "BLEModels", "BLEFormats", "EV3Simulator", "EV3Protocol", "Support", "LIFXModels", "EV3Driver",
            ],
            swiftSettings: strictSettings
        ),
    ]
)
