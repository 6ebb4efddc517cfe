import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// Every command's real `--json` output against docs/schema/v1/smpctl.schema.json: one run of each
/// command with JSON output (and of each kind of error) against virtual devices of each flavour,
/// validated in one Python `jsonschema` call; and no command with `--json` without a definition.
final class JSONSchemaTests: XCTestCase {
    func testEveryCommandsOutputMatchesTheSchema() async throws {
        try ExternalTool.requirePythonModules(["jsonschema", "imgtool", "cbor2"])
        let samples = JSONSchemaSamples()
        try await runZephyrCommands(samples)
        try await runImageCommands(samples)
        try await runMynewtCommands(samples)
        try await runSUITCommands(samples)
        try await runOfflineCommands(samples)
        try await runNordicDFUCommands(samples)
        try await runProfileCommands(samples)
        try await runErrors(samples)
        let verdict = try samples.validate(requireEveryCommand: true)
        XCTAssertEqual(verdict.status, 0, "documents that do not match docs/schema/v1:\n\(verdict.stdout)\(verdict.stderr)")
    }

    /// The check can fail: a document with a renamed field (the old `bufSize`) is refused.
    func testADocumentWithAWrongFieldIsRefused() throws {
        try ExternalTool.requirePythonModules(["jsonschema"])
        let samples = JSONSchemaSamples()
        samples.add("{\"schemaVersion\":1,\"bufSize\":2048,\"bufferCount\":4}\n", as: "osParams", label: "old name")
        samples.add("{\"schemaVersion\":1,\"bufferSize\":2048.5,\"bufferCount\":4}\n", as: "osParams", label: "not an integer")
        samples.add("{\"error\":{\"code\":2,\"name\":\"device-error\",\"message\":\"m\"}}\n", as: "error", label: "no hint")
        let verdict = try samples.validate(requireEveryCommand: false)
        XCTAssertNotEqual(verdict.status, 0, verdict.stdout)
        for label in ["old name", "not an integer", "no hint"] {
            XCTAssertTrue(verdict.stdout.contains(label), "\(label) was not refused:\n\(verdict.stdout)")
        }
    }

    /// Every subcommand `--experimental-dump-help` lists with a `--json` flag has a definition
    /// naming it in `x-smpctl-command`.
    func testEveryCommandWithJSONOutputHasADefinition() async throws {
        let help = try await SMPCtl.run(["--experimental-dump-help"])
        assertExit(help, 0)
        let dump = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(help.stdout.utf8)) as? [String: Any])
        var commands: Set<String> = ["raw"]
        func walk(_ command: [String: Any], _ path: [String]) {
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            let hasJSON = arguments.contains { argument in
                (argument["names"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "json" }
                    && argument["kind"] as? String == "flag"
            }
            if hasJSON { commands.insert(path.joined(separator: " ")) }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path + [sub["commandName"] as? String ?? "?"])
            }
        }
        walk(try XCTUnwrap(dump["command"] as? [String: Any]), [])
        let schemaData = try Data(contentsOf: URL(fileURLWithPath: JSONSchemaSamples.schemaPath))
        let schema = try XCTUnwrap(try JSONSerialization.jsonObject(with: schemaData) as? [String: Any])
        let definitions = try XCTUnwrap(schema["$defs"] as? [String: [String: Any]])
        let described = Set(definitions.values.compactMap { $0["x-smpctl-command"] as? String })
        XCTAssertGreaterThan(commands.count, 50)
        XCTAssertEqual(commands.subtracting(described).sorted(), [], "commands with --json but no definition in docs/schema/v1")
        XCTAssertEqual(described.subtracting(commands).sorted(), [], "definitions of commands without --json")
    }

    // MARK: - The runs

    /// The Zephyr-like device: OS, file system, shell, settings, statistics, enumeration, groups, raw.
    private func runZephyrCommands(_ samples: JSONSchemaSamples) async throws {
        let folder = try FileSystemTestFolder(self)
        var configuration = UpgradeFiles.device()
        configuration.fileSystem = SimulatedFileSystemConfiguration(files: [:], directories: ["/lfs1/dir"])
        let served = try await startDevice(configuration)
        let c = ["-c", served.endpoint, "--json"]
        try await samples.run(["os", "echo", "hi"] + c, as: "osEcho")
        try await samples.run(["os", "taskstat"] + c, as: "osTaskstat")
        try await samples.run(["os", "datetime"] + c, as: "osDatetime")
        try await samples.run(["os", "datetime", "--set", "2024-05-01T12:30:00"] + c, as: "osDatetime")
        try await samples.run(["os", "params"] + c, as: "osParams")
        try await samples.run(["os", "info"] + c, as: "osInfo")
        try await samples.run(["os", "bootloader"] + c, as: "osBootloader")
        try await samples.run(["os", "bootloader", "--query", "mode"] + c, as: "osBootloader")
        let local = try folder.write("log.bin", FileSystemTestFolder.content(5000))
        try await samples.run(["fs", "put", local, "/lfs1/log.bin", "--verify"] + c, as: "fsPut")
        try await samples.run(["fs", "get", "/lfs1/log.bin", (folder.path as NSString).appendingPathComponent("copy.bin")] + c, as: "fsGet")
        try await samples.run(["fs", "stat", "/lfs1/log.bin"] + c, as: "fsStat")
        try await samples.run(["fs", "hash", "/lfs1/log.bin"] + c, as: "fsHash")
        try await samples.run(["fs", "types"] + c, as: "fsTypes")
        try await samples.run(["fs", "close"] + c, as: "fsClose")
        try await samples.run(["shell", "exec"] + c + ["--", "kernel", "version"], as: "shellExec")
        try await samples.run(["shell"] + c, as: "shellInteractive", input: "echo a\necho b\n")
        try await samples.run(["settings", "read", "bt/name"] + c, as: "settingsRead")
        try await samples.run(["settings", "write", "app/count", "--as", "u16"] + c + ["--", "513"], as: "settingsWrite")
        try await samples.run(["settings", "delete", "app/count"] + c, as: "settingsDelete")
        try await samples.run(["settings", "commit"] + c, as: "settingsCommit")
        try await samples.run(["settings", "load"] + c, as: "settingsLoad")
        try await samples.run(["settings", "save", "bt"] + c, as: "settingsSave")
        try await samples.run(["stat", "list"] + c, as: "statList")
        try await samples.run(["stat", "show", "mgmt"] + c, as: "statShow")
        try await samples.run(["stat", "all"] + c, as: "statAll")
        try await samples.run(["stat", "all", "--watch", "0.1", "--count", "2"] + c, as: "statAll")
        try await samples.run(["stat", "show", "mgmt", "nope"] + c, as: "statShow", exit: 2)
        try await samples.run(["groups"] + c, as: "groups")
        try await samples.run(["enum", "count"] + c, as: "enumCount")
        try await samples.run(["enum", "list"] + c, as: "enumList")
        try await samples.run(["enum", "single", "1"] + c, as: "enumSingle")
        try await samples.run(["enum", "details"] + c, as: "enumDetails")
        try await samples.run(["raw", "--group", "os", "--command", "0", "--op", "write", "--cbor", "a16164626869", "--json",
                               "-c", served.endpoint], as: "raw")
        try await samples.run(["raw", "--group", "200", "--command", "0", "--op", "read", "--json", "-c", served.endpoint],
                              as: "raw", exit: 2)
        try await samples.run(["raw", "--group", "os", "--command", "0", "--op", "write", "--cbor", "a1", "--json",
                               "-c", served.endpoint], as: "error", exit: 65)
        try await samples.run(["zephyr", "erase-storage", "--yes"] + c, as: "zephyrEraseStorage")
        try await samples.run(["os", "reset", "--boot-mode", "bootloader"] + c, as: "osReset")
    }

    /// The image commands and an MCUboot upgrade (its events and its result).
    private func runImageCommands(_ samples: JSONSchemaSamples) async throws {
        let served = try await startDevice(UpgradeFiles.device())
        let c = ["-c", served.endpoint, "--json"]
        let app = try UpgradeFiles.file("app-v2")
        let hash = try XCTUnwrap(app.hash)
        try await samples.run(["image", "erase", "--yes"] + c, as: "imageErase")
        try await samples.run(["image", "upload", app.path] + c, as: "imageUpload")
        try await samples.run(["image", "list"] + c, as: "imageList")
        try await samples.run(["image", "slots"] + c, as: "imageSlots")
        try await samples.run(["image", "test", hash] + c, as: "imageTest")
        try await samples.run(["image", "confirm"] + c, as: "imageConfirm")
        let upgrade = try await startDevice(UpgradeFiles.device())
        let v3 = try UpgradeFiles.file("app-v3-signed")
        try await samples.run(["upgrade", v3.path, "--dry-run", "-c", upgrade.endpoint, "--json"], as: "upgrade")
        try await samples.run(["upgrade", v3.path, "-c", upgrade.endpoint, "--json"], as: "upgrade", timeout: 60)
        try await samples.run(["image", "info", v3.path, "--json"], as: "imageInfo")
        try await samples.run(["package", "info", try UpgradeFiles.file("multi.zip").path, "--json"], as: "packageInfo")
        try await runManyDeviceCommands(samples, app: app)
    }

    /// An upgrade of many devices (one refusing it, one absent): its JSON lines and its report file.
    private func runManyDeviceCommands(_ samples: JSONSchemaSamples, app: UpgradeFiles.File) async throws {
        var noImages = VirtualDeviceConfiguration.zephyrForTests
        noImages.images = nil
        let devices = [try await startDevice(UpgradeFiles.device(resetDelay: .zero)), try await startDevice(noImages)]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-schema-fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let targets = folder.appendingPathComponent("rack.txt").path
        let report = folder.appendingPathComponent("run.json").path
        try (devices.map(\.endpoint) + ["udp:127.0.0.1:9"]).joined(separator: "\n").write(toFile: targets, atomically: true, encoding: .utf8)
        try await samples.run(["upgrade", app.path, "--targets", targets, "--report", report, "--json"], as: "manyDevices", exit: 3, timeout: 60)
        samples.add(try String(contentsOfFile: report, encoding: .utf8), as: "fleetReport", label: "the --report file")
    }

    /// The Mynewt-like device: memory pools, console echo, logs, crash and run.
    private func runMynewtCommands(_ samples: JSONSchemaSamples) async throws {
        let served = try await startDevice(.mynewtForTests)
        let c = ["-c", served.endpoint, "--json"]
        try await samples.run(["os", "mpstat"] + c, as: "osMpstat")
        try await samples.run(["os", "console-echo", "off"] + c, as: "osConsoleEcho")
        try await samples.run(["log", "show"] + c, as: "logShow")
        try await samples.run(["log", "list"] + c, as: "logList")
        try await samples.run(["log", "modules"] + c, as: "logModules")
        try await samples.run(["log", "levels"] + c, as: "logLevels")
        try await samples.run(["log", "clear", "log"] + c, as: "logClear")
        try await samples.run(["groups"] + c, as: "groups")
        try await samples.run(["run", "list"] + c, as: "runList")
        try await samples.run(["run", "test", "os_test", "--token", "t1"] + c, as: "runTest")
        try await samples.run(["crash", "test", "div0", "--yes"] + c, as: "crashTest")
    }

    /// The SUIT device: manifests, state, poll, cleanup, uploads and a SUIT upgrade.
    private func runSUITCommands(_ samples: JSONSchemaSamples) async throws {
        let served = try await startDevice(SUITFiles.device(bootTime: .zero))
        let c = ["-c", served.endpoint, "--json"]
        try await samples.run(["suit", "manifests"] + c, as: "suitManifests")
        try await samples.run(["suit", "state", "app-root"] + c, as: "suitState")
        try await samples.run(["suit", "poll"] + c, as: "suitPoll")
        try await samples.run(["suit", "cleanup"] + c, as: "suitCleanup")
        try await samples.run(["suit", "cache-upload", "--partition", "1", try SUITFiles.file("dfu_cache_partition_1.bin").path] + c,
                              as: "suitCacheUpload")
        try await samples.run(["suit", "upload", try SUITFiles.file("plain-seq4.suit").path] + c, as: "suitUpload", timeout: 60)
        let package = try SUITFiles.file("dfu_suit.zip")
        try await samples.run(["package", "info", package.path, "--json"], as: "packageInfo")
        try await samples.run(["upgrade", package.path, "--dry-run"] + c, as: "upgrade")
        try await samples.run(["upgrade", package.path, "--suit-poll-window", "30"] + c, as: "upgrade", timeout: 60)
    }

    /// Commands that need no device of their own: ports, ble scan (the mock BlueZ), simulate, demo.
    /// A Nordic DFU upgrade of two images on the virtual Secure DFU bootloader, planned and run.
    private func runNordicDFUCommands(_ samples: JSONSchemaSamples) async throws {
        let nordic = try NordicDFUPackageSet.folder()
        let link = (NSTemporaryDirectory() as NSString).appendingPathComponent("smpctl-\(getpid())-\(UUID().uuidString.prefix(8))-dfu")
        let server = SecureDFUPTYServer(target: SecureDFUTarget(configuration: SecureDFUValidation().configuration()), linkPath: link)
        let path = try await server.start()
        let package = nordic.appendingPathComponent("secure-multi.zip").path
        try await samples.run(["upgrade", package, "--dry-run", "--json", "-c", "serial:\(path)"], as: "upgrade", exit: 0)
        try await samples.run(["upgrade", package, "--json", "-c", "serial:\(path)"], as: "upgrade", exit: 0, timeout: 60)
        await server.stop()
    }

    private func runOfflineCommands(_ samples: JSONSchemaSamples) async throws {
        try await samples.run(["ports", "--json"], as: "ports")
        try await samples.run(["targets", "udp:127.0.0.1:14000-14001", "--json"], as: "targets")
        let served = try await startDevice()
        let port = try XCTUnwrap(served.endpoint.split(separator: ":").last.map(String.init))
        let mock = try await startBlueZMock(["--device", "C0:FF:EE:00:00:01,Zephyr,\(port)"])
        let bus = ["DBUS_SYSTEM_BUS_ADDRESS": mock.busAddress]
        try await samples.run(["ble", "scan", "--duration", "1", "--json"], as: "bleScan", environment: bus)
        try await samples.run(["ble", "pair", "C0:FF:EE:00:00:01", "--json"], as: "blePair", environment: bus)
        try await samples.run(["ble", "bonds", "--json"], as: "bleBonds", environment: bus)
        try await samples.run(["ble", "unpair", "C0:FF:EE:00:00:01", "--json"], as: "bleUnpair", environment: bus)
        let simulator = try BackgroundProcess(smpctl: ["simulate", "--udp", "127.0.0.1:0", "--json"])
        defer { simulator.stop() }
        let announced = await simulator.waitForLine { $0.hasPrefix("{") }
        let line = try XCTUnwrap(announced, "simulate --json printed no document")
        samples.add(line + "\n", as: "simulate", label: "smpctl simulate --json")
        let many = try BackgroundProcess(smpctl: [
            "simulate", "--udp", "127.0.0.1:0", "--serial-link", "/tmp/smpctl-schema-\(UUID().uuidString)", "--count", "2",
            "--device-fault", "2:slow", "--json",
        ])
        defer { many.stop() }
        let manyAnnounced = await many.waitForLine { $0.hasPrefix("{") }
        let manyLine = try XCTUnwrap(manyAnnounced, "simulate --count --json printed no document")
        samples.add(manyLine + "\n", as: "simulate", label: "smpctl simulate --count 2 --json")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-schema-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await samples.run(["demo", "--json", "--samples", folder.path], as: "demo", timeout: 60)
        let nordic = try NordicDFUPackageSet.folder()
        let signed = nordic.appendingPathComponent("secure-multi.zip").path
        try await samples.run(["package", "info", signed, "--key", nordic.appendingPathComponent("public.pem").path, "--json"], as: "nordicPackageInfo")
        try await samples.run(["package", "info", nordic.appendingPathComponent("legacy-0.5.zip").path, "--json"], as: "nordicPackageInfo")
    }

    /// The profile commands, on a config file of their own.
    private func runProfileCommands(_ samples: JSONSchemaSamples) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-schema-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["SMPCTL_CONFIG": folder.appendingPathComponent("config.yaml").path]
        let add = ["profile", "add", "lab", "-c", "serial:/dev/ttyACM0", "--baud", "1000000", "--window", "8", "--timeout", "2", "--json"]
        try await samples.run(add, as: "profileAdd", environment: environment)
        try await samples.run(["profile", "add", "sim", "-c", "udp:127.0.0.1:1337", "--json"], as: "profileAdd", environment: environment)
        try await samples.run(["profile", "list", "--json"], as: "profileList", environment: environment)
        try await samples.run(["profile", "show", "lab", "--json"], as: "profileShow", environment: environment)
        try await samples.run(["profile", "remove", "sim", "--json"], as: "profileRemove", environment: environment)
    }

    /// One error document of each kind the tests can cause: device (SMP and group), data, usage,
    /// timeout, transport.
    private func runErrors(_ samples: JSONSchemaSamples) async throws {
        let served = try await startDevice()
        let c = ["-c", served.endpoint, "--json"]
        try await samples.run(["os", "mpstat"] + c, as: "error", exit: 2)
        try await samples.run(["os", "info", "--format", "z"] + c, as: "error", exit: 2)
        try await samples.run(["fs", "get", "/lfs1/nope"] + c, as: "error", exit: 2)
        try await samples.run(["os", "datetime", "--set", "yesterday"] + c, as: "error", exit: 65)
        try await samples.run(["os", "echo", "x", "--retries", "99"] + c, as: "error", exit: 64)
        try await samples.run(["image", "test", "abc"] + c, as: "error")
        let silent = try SilentUDPSocket()
        try await samples.run(["os", "echo", "x", "--timeout", "0.2", "--retries", "0", "-c", silent.endpoint, "--json"], as: "error", exit: 75)
        try await samples.run(["os", "echo", "x", "-c", "ble:name=Zephyr", "--json"], as: "error", exit: 69,
                              environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
    }
}
