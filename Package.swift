// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "chest",
    products: [
        // One program that is chest, chestd, chest-walk and chest-weather by the name it is called by (argv[0]):
        // installed once, with links for the other names (mk/install.mk).
        .executable(name: "chest", targets: ["chest"])
    ],
    targets: [
        // libgps (gpsd's client library), found with pkg-config.
        .systemLibrary(name: "CGPSD", path: "CGPSD", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        // libsodium: Ed25519 signatures and Argon2id PIN hashes.
        .systemLibrary(
            name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]),
        // The next four are not linked: the program opens each at the first call of one of its functions
        // (CLazyLibraries), so that chestd and the commands that do not need them never load them and the dozens of
        // libraries they bring (docs/PACKAGING.md "Libraries loaded on demand"). Their headers are in the system's
        // include path, libxml2's under /usr/include/libxml2 (given to every module below).
        // libmosquitto: the MQTT client for hunts over a Mosquitto broker.
        .systemLibrary(name: "CMosquitto", path: "Sources/CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // GNU libmicrohttpd: the HTTP server of the organiser's board in a browser.
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        // libxml2: geocaching GPX files (Pocket Queries, Adventure Lab and c:geo/GSAK exports) as quests.
        .systemLibrary(name: "CLibXML2", path: "Sources/CLibXML2", providers: [.apt(["libxml2-dev"])]),
        // libutf8proc: Unicode normal forms (NFKC, NFC) for the answer lock and lookalike names, without ICU. No
        // pkgConfig: its flags carry a -D that SwiftPM refuses; the header is in /usr/include.
        .systemLibrary(name: "CUTF8Proc", path: "Sources/CUTF8Proc", providers: [.apt(["libutf8proc-dev"])]),
        // libcurl: the weather providers' HTTPS requests, without FoundationNetworking.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The functions of those four libraries, calling the real ones in the library opened with dlopen. Hidden:
        // none is exported, so the libraries' calls to their own functions never land on these.
        .target(
            name: "CLazyLibraries", cSettings: [.unsafeFlags(["-I/usr/include/libxml2", "-fvisibility=hidden"])]),
        // Pure: the model, the message file format, locks, geometry, the evaluation engine, quests, hunts and the
        // board's core, time zones by the rules of the TZif bytes it is given. No I/O, no clock reads.
        .target(name: "ChestCore", dependencies: ["CUTF8Proc"]),
        // Pure: declared commands, the one argument parser, help text and shell completion scripts.
        .target(name: "ChestArguments"),
        // A simulated GPS receiver: walks written as NMEA 0183 (chest-walk, the demo, the tests), from a description,
        // a GPX track (ChestGPX) or an NMEA log.
        .target(name: "ChestSimulator", dependencies: ["ChestCore", "ChestGPX"]),
        // Thin adapters over the OS: files, inotify, Unix socket, processes, signals, systemd, the libraries opened on
        // demand. Links no C library.
        .target(name: "ChestIO", dependencies: ["ChestCore", "CLazyLibraries"]),
        // gpsd through libgps: the one module that links it.
        .target(name: "ChestGPS", dependencies: ["ChestCore", "ChestIO", "CGPSD"]),
        // Seals, identities and PIN hashes through libsodium: the one module that links it.
        .target(name: "ChestSeal", dependencies: ["ChestCore", "ChestIO", "CSodium"]),
        // MQTT through libmosquitto, on a thread of its own that keeps reconnecting: the one module that links it.
        .target(name: "ChestMQTT", dependencies: ["CMosquitto", "CLazyLibraries", "ChestIO"]),
        // The board in a browser: the page, its map and event stream as pure functions of a snapshot, served through
        // libmicrohttpd (the one module that links it).
        .target(name: "ChestWeb", dependencies: ["ChestCore", "ChestIO", "CMicroHTTPD", "CLazyLibraries"]),
        // The weather providers over HTTP through libcurl (the one module that links it), run by chestd in the
        // short-lived `chest-weather` helper.
        .target(name: "ChestWeather", dependencies: ["ChestCore", "ChestIO", "CCurl", "CLazyLibraries"]),
        // GPX files through libxml2 (the one module that links it): a GPX of caches, for the pure mapping to a quest
        // in ChestCore (docs/QUEST.md "A course from a geocaching GPX"), and `GPX`, the waypoints and tracks of a
        // quest's places and a recorded walk, read and written.
        .target(name: "ChestGPX", dependencies: ["ChestCore", "ChestIO", "CLibXML2", "CLazyLibraries"]),
        // The daemon and the command line (with chest-walk) as libraries, so tests can drive them.
        .target(
            name: "ChestDaemon",
            dependencies: ["ChestArguments", "ChestCore", "ChestIO", "ChestGPS", "ChestSeal", "ChestMQTT"]),
        .target(
            name: "ChestCLI",
            dependencies: [
                "ChestArguments", "ChestCore", "ChestIO", "ChestSeal", "ChestSimulator", "ChestMQTT",
                "ChestWeb", "ChestGPX",
            ]),
        // The one program: chest, chestd, chest-walk or chest-weather by the name it is called by (main.swift).
        .executableTarget(name: "chest", dependencies: ["ChestCLI", "ChestDaemon", "ChestWeather"]),
        // The benchmark of docs/DESIGN.md "Performance targets" (docs/BENCHMARKS.md).
        .target(name: "ChestBench", dependencies: ["ChestCore", "ChestIO", "ChestSeal", "ChestMQTT", "ChestGPX"]),
        .executableTarget(name: "chest-bench", dependencies: ["ChestBench"], path: "Sources/chest-bench"),
        .target(
            name: "ChestTestSupport",
            dependencies: ["ChestCore", "ChestIO", "ChestMQTT", "ChestSeal", "ChestSimulator"],
            path: "Tests/ChestTestSupport"),
        .testTarget(name: "ChestCoreTests", dependencies: ["ChestCore", "ChestIO", "ChestTestSupport"]),
        .testTarget(name: "ChestSimulatorTests", dependencies: ["ChestCore", "ChestGPX", "ChestSimulator"]),
        .testTarget(name: "ChestGPXTests", dependencies: ["ChestBench", "ChestCore", "ChestGPX", "ChestTestSupport"]),
        .testTarget(name: "ChestArgumentsTests", dependencies: ["ChestArguments"]),
        .testTarget(
            name: "ChestCLITests",
            dependencies: [
                "ChestArguments", "ChestCLI", "ChestDaemon", "ChestCore", "ChestMQTT", "ChestSeal", "ChestSimulator",
                "ChestTestSupport", "ChestWeb",
            ]),
        .testTarget(
            name: "ChestIOTests",
            dependencies: ["ChestCore", "ChestIO", "ChestSeal", "ChestWeather", "ChestTestSupport"]),
        .testTarget(
            name: "ChestGPSTests",
            dependencies: [
                "CGPSD", "ChestCore", "ChestIO", "ChestGPS", "ChestSimulator",
                "ChestTestSupport",
            ]),
        .testTarget(name: "ChestSealTests", dependencies: ["ChestCore", "ChestIO", "ChestSeal", "ChestTestSupport"]),
        .testTarget(
            name: "ChestWeatherTests", dependencies: ["ChestCore", "ChestIO", "ChestWeather", "ChestTestSupport"]),
        .testTarget(name: "ChestWebTests", dependencies: ["ChestCore", "ChestIO", "ChestWeb", "ChestTestSupport"]),
        .testTarget(name: "ChestMQTTTests", dependencies: ["ChestMQTT", "ChestTestSupport"]),
        // chestd's loop driven in process: a fake broker, gpsd's lines through a pipe (docs/ARCHITECTURE.md).
        .testTarget(
            name: "ChestDaemonTests",
            dependencies: [
                "ChestDaemon", "ChestCore", "ChestIO", "ChestGPS", "ChestMQTT",
                "ChestSeal", "ChestTestSupport",
            ]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "ChestCore", "ChestGPX", "ChestIO", "ChestSeal", "ChestSimulator",
                "ChestTestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// The compiler as reviewer: in debug builds, an expression that takes over 300 ms to type-check is a warning
// (one had cost 12 s of every build).
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? [])
        + [.unsafeFlags(["-Xfrontend", "-warn-long-expression-type-checking=300"], .when(configuration: .debug))]
}

// libxml2's headers, for every module that sees CLibXML2 (ChestGPX's, and those that import ChestGPX).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xcc", "-I/usr/include/libxml2"])]
}

// chestd's fix path together in memory (docs/BENCHMARKS.md "Memory"): in release builds each function of chest's own
// modules gets a section of its own, and the link lays out first those a walk runs on every fix, listed in
// Sources/chest/HotPath.order. The kernel maps code back 64 KB around each page a fix touches, so the fix path spread
// over the 13 MB of code kept megabytes of it resident. A function missing from the list only lands later.
for target in package.targets where target.type == .regular && target.name.hasPrefix("Chest") {
    target.swiftSettings =
        (target.swiftSettings ?? [])
        + [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]
}
// The program exports no symbol (Sources/chest/exports.map): nothing loads it as a library, and a library it opens
// could otherwise bind its calls to its own functions to the program's (docs/PACKAGING.md "Libraries loaded on demand").
for target in package.targets where target.name == "chest" {
    target.exclude = ["HotPath.order", "exports.map"]
    target.linkerSettings = [
        .unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/chest/exports.map"]),
        .unsafeFlags(
            ["-Xlinker", "--section-ordering-file=\(Context.packageDirectory)/Sources/chest/HotPath.order"],
            .when(configuration: .release)),
    ]
}
