// swift-tools-version:6.0
import PackageDescription

/// smpctl — manage microcontrollers over SMP (MCUmgr) from Linux (the only platform it is built
/// and tested on).
///
/// Module layout (see docs/architecture.md): each product stands alone and pulls in only what it uses.
///
///     CBOR ← SMP (+ swift-crypto, swift-log)          the protocol, the client, the groups
///     DescriptorIO                                     blocking I/O: a poll() thread, one owner per
///                                                      descriptor; Glibc only
///     SMP, DescriptorIO ← SMPUDP (+ OpenSSL)           UDP transport, DTLS
///            SMP ← SMPConsoleFraming                   serial console framing (base64 + CRC16), pure Swift
///            SMP ← SMPLocalFiles                       where a download goes on this machine: `.part` files,
///                                                      folders, streams, links (what the CLI's `fs get` writes)
///     SMPConsoleFraming, DescriptorIO ← SMPSerial      serial transport (tty, TCP byte stream)
///             SMPSerial ← SMPSerialDiscovery (+ libudev)   port discovery, waiting for a port
///     SMP, DescriptorIO ← SMPBluetooth (+ libdbus)      BLE transport through BlueZ
///     SMPFirmware, SMPSerial, SMPConsoleFraming ← NordicDFU (+ swift-crypto)   nRF5 SDK bootloaders: DFU
///                                                      packages, Secure and legacy DFU, their serial framings
///     SMPUDP, SMPSerial, SMPSerialDiscovery, SMPBluetooth, NordicDFU ← SMPKit   connection strings → transports
///                                                      (SMP clients, Nordic DFU bootloaders)
///     SMPKit, SMPFirmware ← SMPFleet                   many devices at once: targets, runs, reports
///     SMPConsoleFraming, DescriptorIO, NordicDFU, SMPUDP ← SMPSimulator (+ SwiftNIO)   an SMP server (and
///                                                      Nordic DFU targets) for tests and demos, over any byte stream
///     SMPKit, SMPFleet, SMPSimulator, NordicDFU, SMPFirmware, SMPLocalFiles, DescriptorIO ← smpctl
///
/// SMPUDP needs libssl-dev (DTLS). Only SMPSerialDiscovery needs libudev-dev and only SMPBluetooth libdbus-1-dev: `SMP` plus
/// `SMPUDP` build without either (Tests/Scripts/standalone/check-standalone.sh proves it with
/// Examples/UDPEcho). SMPKit is the umbrella that knows every transport; a program that wants
/// fewer uses SMP and the transport products directly.
let package = Package(
    name: "smpctl",
    // Static library products, so that each one can be built alone (`swift build --product SMP`
    // builds everything for an automatic product); depending packages link them as they would
    // automatic ones.
    products: [
        .library(name: "JSON", type: .static, targets: ["JSON"]),
        .library(name: "CBOR", type: .static, targets: ["CBOR"]),
        .library(name: "SMP", type: .static, targets: ["SMP"]),
        .library(name: "DescriptorIO", type: .static, targets: ["DescriptorIO"]),
        .library(name: "SMPUDP", type: .static, targets: ["SMPUDP"]),
        .library(name: "SMPConsoleFraming", type: .static, targets: ["SMPConsoleFraming"]),
        .library(name: "SMPLocalFiles", type: .static, targets: ["SMPLocalFiles"]),
        .library(name: "SMPSerial", type: .static, targets: ["SMPSerial"]),
        .library(name: "SMPSerialDiscovery", type: .static, targets: ["SMPSerialDiscovery"]),
        .library(name: "SMPSimulator", type: .static, targets: ["SMPSimulator"]),
        .library(name: "SMPFirmware", type: .static, targets: ["SMPFirmware"]),
        .library(name: "SMPBluetooth", type: .static, targets: ["SMPBluetooth"]),
        .library(name: "SMPKit", type: .static, targets: ["SMPKit"]),
        .library(name: "SMPFleet", type: .static, targets: ["SMPFleet"]),
        .library(name: "NordicDFU", type: .static, targets: ["NordicDFU"]),
        .executable(name: "smpctl", targets: ["smpctl"]),
        .executable(name: "smpctl-bench", targets: ["SMPBenchmarks"]),
        .executable(name: "udp-echo-example", targets: ["UDPEchoExample"]),
        .executable(name: "cbor-fuzzer", targets: ["CBORFuzzer"]),
        .executable(name: "serial-fuzzer", targets: ["SerialFramingFuzzer"]),
        .executable(name: "image-fuzzer", targets: ["MCUbootImageFuzzer"]),
        .executable(name: "package-fuzzer", targets: ["FirmwarePackageFuzzer"]),
        .executable(name: "suit-fuzzer", targets: ["SUITEnvelopeFuzzer"]),
        .executable(name: "intel-hex-fuzzer", targets: ["IntelHexFuzzer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        // 4.x builds on FoundationEssentials: the binary links no FoundationInternationalization (ICU data).
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // Writes the test archives only (an independent ZIP writer for SMPFirmware's reader); linked into no product.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        // `swift package generate-documentation --target SMPKit` (docs/install.md); a plugin only,
        // linked into nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // JSON values with ordered members, one strict parser and one writer: the CLI's documents,
        // NCS manifests and the line-pacing cache. CBOR's diagnostic notation quotes text as JSON does.
        .target(name: "JSON"),
        .target(name: "CBOR", dependencies: ["JSON"]),
        // Blocking I/O off Swift's cooperative pool (a poll() thread, one owner per descriptor):
        // the serial and BLE transports, the simulator's pty and the shell's standard input.
        .target(name: "DescriptorIO"),
        .target(
            name: "SMP",
            dependencies: ["CBOR", .product(name: "Logging", package: "swift-log"), .product(name: "Crypto", package: "swift-crypto")]
        ),
        // OpenSSL 3 (libssl-dev): DTLS for the UDP transport and the simulator's UDP server.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "SMPUDP",
            dependencies: ["SMP", "COpenSSL", "DescriptorIO"]
        ),
        // The serial console framing: pure Swift, shared by the serial transport and the simulator.
        .target(name: "SMPConsoleFraming", dependencies: ["SMP"]),
        // Local files: where a download goes (a `.part` file renamed into place, a folder, a
        // stream) and the policy for links and files left by interrupted downloads.
        .target(name: "SMPLocalFiles", dependencies: ["SMP"]),
        .target(
            name: "SMPSerial",
            dependencies: ["SMP", "SMPConsoleFraming", "DescriptorIO", .product(name: "Logging", package: "swift-log")]
        ),
        .systemLibrary(
            name: "CUdev",
            pkgConfig: "libudev",
            providers: [.apt(["libudev-dev"])]
        ),
        .target(
            name: "SMPSerialDiscovery",
            dependencies: ["SMP", "SMPSerial", "DescriptorIO", "CUdev"]
        ),
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        .target(
            name: "SMPBluetooth",
            dependencies: ["SMP", "DescriptorIO", "CDBus"]
        ),
        // Nordic DFU (nRF5 SDK bootloaders): packages and init packets, the Secure and legacy DFU
        // protocols, their serial framings. Behind the same upgrade vocabulary as MCUboot and SUIT.
        .target(
            name: "NordicDFU",
            dependencies: [
                "SMP", "SMPFirmware", "SMPSerial", "SMPConsoleFraming", "JSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "SMPSimulator",
            dependencies: [
                "SMP", "CBOR", "SMPConsoleFraming", "DescriptorIO", "NordicDFU", "SMPUDP",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // zlib (zlib1g-dev): inflate and CRC-32 for the ZIP packages SMPFirmware reads. Not "CZlib":
        // ZIPFoundation (the tests' archive writer) has a module of that name.
        .systemLibrary(
            name: "CSystemZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "SMPFirmware",
            dependencies: [
                "SMP", "CBOR", "JSON",
                "CSystemZlib",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "SMPKit",
            dependencies: [
                "SMP", "SMPUDP", "SMPSerial", "SMPSerialDiscovery", "SMPBluetooth", "JSON", "NordicDFU", "DescriptorIO",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "SMPFleet",
            dependencies: [
                "SMP", "SMPKit", "SMPFirmware", "SMPSerial", "SMPSerialDiscovery", "SMPBluetooth",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // libyaml (libyaml-dev): reads and writes smpctl's config file (docs/configuration.md); only the
        // smpctl executable uses it.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .executableTarget(
            name: "smpctl",
            dependencies: [
                "SMP", "SMPKit", "SMPFleet", "SMPSimulator", "SMPUDP", "SMPSerial", "SMPSerialDiscovery", "SMPBluetooth", "SMPFirmware", "CBOR",
                "JSON", "SMPLocalFiles", "DescriptorIO", "NordicDFU",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                "CYAML",
            ],
            // No dynamic symbol table of the binary's own functions (about 2.3 MB): nothing looks them up at run time.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"])],
            plugins: ["VersionStamp"]
        ),
        // `smpctl --version` from the git tag and commit (or VERSION without .git), before each build.
        .plugin(name: "VersionStamp", capability: .buildTool(), path: "Plugins/VersionStamp", exclude: ["stamp-version.sh"]),
        .executableTarget(
            name: "SMPBenchmarks",
            dependencies: ["SMPKit", "SMP", "SMPSerial", "SMPConsoleFraming"],
            path: "Benchmarks/SMPBenchmarks"
        ),
        // SMP and the UDP transport alone, as a program outside this package would use them.
        .executableTarget(
            name: "UDPEchoExample",
            dependencies: ["SMP", "SMPUDP"],
            path: "Examples/UDPEcho"
        ),
        .target(name: "FuzzingSupport"),
        .executableTarget(
            name: "CBORFuzzer",
            dependencies: ["CBOR", "FuzzingSupport"],
            path: "Sources/CBORFuzzer",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "SerialFramingFuzzer",
            dependencies: ["SMPConsoleFraming", "FuzzingSupport"],
            path: "Sources/SerialFramingFuzzer",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "MCUbootImageFuzzer",
            dependencies: ["SMPFirmware", "FuzzingSupport", .product(name: "Crypto", package: "swift-crypto")],
            path: "Sources/MCUbootImageFuzzer",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "FirmwarePackageFuzzer",
            dependencies: ["SMPFirmware", "NordicDFU", "FuzzingSupport"],
            path: "Sources/FirmwarePackageFuzzer",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "SUITEnvelopeFuzzer",
            dependencies: ["SMPFirmware", "CBOR", "FuzzingSupport", .product(name: "Crypto", package: "swift-crypto")],
            path: "Sources/SUITEnvelopeFuzzer",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "IntelHexFuzzer",
            dependencies: ["SMPFirmware", "FuzzingSupport"],
            path: "Sources/IntelHexFuzzer",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .target(
            name: "SMPTestSupport",
            dependencies: ["SMP", "CBOR", "SMPSimulator", .product(name: "Crypto", package: "swift-crypto")],
            path: "Tests/SMPTestSupport"
        ),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "CBORTests", dependencies: ["CBOR", "SMPTestSupport"]),
        .testTarget(name: "DescriptorIOTests", dependencies: ["DescriptorIO", "SMPTestSupport"]),
        .testTarget(name: "SMPTests", dependencies: ["SMP", "SMPLocalFiles", "CBOR", "SMPTestSupport"]),
        .testTarget(name: "SMPUDPTests", dependencies: ["SMPUDP", "SMPSimulator", "SMP", "SMPLocalFiles", "SMPTestSupport"]),
        .testTarget(
            name: "SMPSimulatorTests",
            dependencies: [
                "SMPSimulator", "SMPUDP", "SMPSerial", "SMP", "CBOR", "SMPTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "SMPConsoleFramingTests", dependencies: ["SMPConsoleFraming", "SMP", "CBOR", "SMPTestSupport"]),
        .testTarget(
            name: "SMPSerialTests",
            dependencies: [
                "SMPSerial", "SMPSerialDiscovery", "SMP", "SMPSimulator", "SMPTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SMPFirmwareTests",
            dependencies: [
                "SMPFirmware", "SMP", "CBOR", "SMPSimulator", "SMPKit", "SMPTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(
            name: "NordicDFUTests",
            dependencies: [
                "NordicDFU", "SMP", "SMPFirmware", "SMPSimulator", "SMPTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(name: "SMPBluetoothTests", dependencies: ["SMPBluetooth", "SMP", "SMPSimulator", "SMPKit", "SMPTestSupport"]),
        .testTarget(
            name: "SMPKitTests",
            dependencies: [
                "SMPKit", "SMP", "SMPSerial", "SMPSimulator", "SMPTestSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SMPFleetTests",
            dependencies: [
                "SMPFleet", "SMPKit", "SMP", "SMPSimulator", "SMPFirmware", "SMPSerialDiscovery", "SMPTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "smpctlTests",
            dependencies: [
                "smpctl", "SMPSimulator", "SMP", "SMPKit", "SMPFleet", "SMPFirmware", "SMPUDP", "CBOR", "SMPTestSupport",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The real smpctl binary against the prebuilt Zephyr/MCUboot firmware in ../shared/zephyr-fixtures.
        .testTarget(name: "ZephyrConformanceTests", dependencies: ["SMPTestSupport", .product(name: "Crypto", package: "swift-crypto")]),
    ],
    swiftLanguageModes: [.v6]
)
