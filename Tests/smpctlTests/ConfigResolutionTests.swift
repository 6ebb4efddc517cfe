import Foundation
import SMP
import SMPKit
import XCTest
@testable import smpctl

/// The config file and the layering of settings (docs/configuration.md), in process: what wins
/// over what, how a bad file is reported, and how the file is rewritten.
final class ConfigResolutionTests: XCTestCase {
    private static let sample = """
        defaults:
          timeout: 7
          baud: 230400
          window: 2
        profiles:
          lab:
            connection: serial:/dev/ttyACM0
            retries: 4
            window: 8
          bench:
            connection: udp:127.0.0.1:1337?timeout=2.5
            mtu: 1024

        """

    /// A config file holding `text`, in a fresh folder.
    private func store(_ text: String) throws -> ConfigStore {
        let folder = try FileSystemTestFolder(self)
        let path = (folder.path as NSString).appendingPathComponent("smpctl/config.yaml")
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return ConfigStore(path: path)
    }

    private func resolve(
        _ commandLine: ConfigSettings = ConfigSettings(), profile: String? = nil, environment: [String: String] = [:], in store: ConfigStore
    ) throws -> LinkResolution {
        try LinkResolution(commandLine: commandLine, profileOption: profile, environment: environment, store: store)
    }

    // MARK: Precedence

    func testAProfileTakesTheDefaultsForWhatItDoesNotSet() throws {
        let lab = try resolve(profile: "lab", in: try store(Self.sample))
        XCTAssertEqual(lab.connection.description, "serial:/dev/ttyACM0?timeout=7&retries=4&baud=230400", "baud from the defaults")
        XCTAssertEqual(lab.connection.options.timeout, 7)
        XCTAssertEqual(lab.connection.options.retries, 4)
        XCTAssertEqual(lab.window, 8)
        XCTAssertEqual(lab.invocationArguments, ["-p", "lab"], "the profile is in the file: naming it is enough")
    }

    func testAnOptionTheTransportDoesNotTakeIsLeftOut() throws {
        let bench = try resolve(profile: "bench", in: try store(Self.sample))
        XCTAssertEqual(bench.connection.description, "udp:127.0.0.1:1337?timeout=2.5&mtu=1024", "no baud for UDP")
        XCTAssertEqual(bench.connection.options.timeout, 2.5, "the profile's connection string beats the defaults")
        XCTAssertEqual(bench.window, 2, "window from the defaults")
    }

    func testTheCommandLineBeatsTheProfileWhichBeatsTheEnvironment() throws {
        let file = try store(Self.sample)
        let environment = ["SMPCTL_CONNECTION": "udp:192.0.2.9", "SMPCTL_TIMEOUT": "9", "SMPCTL_RETRIES": "1"]
        // -p beats the environment for what the profile sets; the environment fills the rest.
        let lab = try resolve(profile: "lab", environment: environment, in: file)
        XCTAssertEqual(lab.connection.description, "serial:/dev/ttyACM0?timeout=9&retries=4&baud=230400")
        XCTAssertEqual(lab.connection.options.timeout, 9, "SMPCTL_TIMEOUT beats the defaults")
        XCTAssertEqual(lab.connection.options.retries, 4, "the profile beats SMPCTL_RETRIES")
        XCTAssertEqual(lab.invocationArguments, ["-p", "lab", "--timeout", "9"], "what the environment gave is written out")

        // The command line beats all.
        let flags = ConfigSettings(connection: "udp:127.0.0.1:2000", options: ["timeout": "1.5"])
        let both = try resolve(flags, profile: "lab", environment: environment, in: file)
        XCTAssertEqual(both.connection.description, "udp:127.0.0.1:2000?timeout=1.5&retries=4")
        XCTAssertEqual(both.connection.options.timeout, 1.5)
        XCTAssertEqual(both.connection.options.retries, 4)
        XCTAssertEqual(both.invocationArguments, ["-p", "lab", "-c", "udp:127.0.0.1:2000", "--timeout", "1.5"])
    }

    func testSMPCTLProfileRanksBelowTheOtherVariables() throws {
        let file = try store(Self.sample)
        let chosen = try resolve(environment: ["SMPCTL_PROFILE": "lab"], in: file)
        XCTAssertEqual(chosen.connection.description, "serial:/dev/ttyACM0?timeout=7&retries=4&baud=230400")
        XCTAssertEqual(chosen.invocationArguments, ["-p", "lab"])
        let overridden = try resolve(environment: ["SMPCTL_PROFILE": "lab", "SMPCTL_CONNECTION": "udp:192.0.2.9?timeout=4"], in: file)
        XCTAssertEqual(overridden.connection.description, "udp:192.0.2.9:1337?timeout=4&retries=4")
        XCTAssertEqual(overridden.connection.options.timeout, 4)
        XCTAssertEqual(overridden.connection.options.retries, 4, "the profile still gives what the environment does not")
        XCTAssertEqual(overridden.invocationArguments, ["-p", "lab", "-c", "udp:192.0.2.9?timeout=4"], "the timeout travels in -c")
    }

    func testWithoutAFileTheBuiltInDefaultsApply() throws {
        let none = ConfigStore(path: "/nonexistent/smpctl/config.yaml")
        let plain = try resolve(ConfigSettings(connection: "udp:127.0.0.1"), in: none)
        XCTAssertEqual(plain.connection.options, ConnectionOptions(), "no timeout or retries: the client's built-in ones apply")
        XCTAssertNil(plain.window)
        XCTAssertEqual(plain.invocationArguments, ["-c", "udp:127.0.0.1"])
    }

    // MARK: Errors

    /// A typo is answered with the nearest name, and the hint lists them all.
    func testAnUnknownProfileNamesTheOthers() throws {
        let file = try store(Self.sample)
        XCTAssertThrowsError(try resolve(profile: "lba", in: file)) { error in
            let failure = CLIError(error)
            XCTAssertEqual(failure.status, .usage)
            XCTAssertEqual(failure.message, "no profile \"lba\" (-p) in \(file.path); did you mean \"lab\"?")
            XCTAssertEqual(failure.hint, "the profiles are: bench, lab (smpctl profile list)")
        }
        XCTAssertThrowsError(try resolve(environment: ["SMPCTL_PROFILE": "x"], in: try store(""))) { error in
            XCTAssertTrue(CLIError(error).message.contains("(SMPCTL_PROFILE)"))
            XCTAssertTrue(CLIError(error).hint?.contains("smpctl profile add x -c CONNECTION") ?? false)
        }
    }

    func testABadFileNamesTheFileTheLineAndTheKey() throws {
        let cases: [(String, String)] = [
            ("profiles:\n  lab:\n    connection: udp:127.0.0.1\n    bud: 9600\n", ":4: profiles.lab.bud: unknown key \"bud\""),
            ("defaults:\n  window: many\n", ":2: defaults.window: expected a whole number"),
            ("defaults:\n  window: 65\n", ":2: defaults.window: window takes a whole number of requests in flight from 1 to 64, not 65"),
            ("profiles:\n  lab:\n    connection: serial:/dev/ttyACM0\n    pair: 1\n", ":4: profiles.lab.pair: serial connections do not take \"pair\""),
            ("profiles:\n  lab:\n    connection: serial:/dev/ttyACM0\n    baud: 5\n", ":4: profiles.lab.baud: baud: 5: expected a baud rate such as 115200"),
            ("profiles:\n  lab:\n    connection: tcp:x\n", ":3: profiles.lab.connection: invalid connection string"),
            ("profile:\n  lab: {}\n", ":1: profile: unknown section \"profile\""),
            ("profiles:\n  lab:\n   connection: [\n", ": not valid YAML: "),
            ("- a\n- b\n", ":1: the config file must be a mapping"),
            ("profiles:\n  lab:\n    connection: udp:127.0.0.1\n    [a]: 1\n", ":2: profiles.lab: a key must be text, not a list"),
        ]
        for (text, expected) in cases {
            let file = try store(text)
            XCTAssertThrowsError(try file.load(), text) { error in
                let failure = CLIError(error)
                XCTAssertEqual(failure.status, .dataError, text)
                XCTAssertTrue(failure.message.hasPrefix(file.path + expected.prefix { $0 != " " }), "\(failure.message)\nexpected: \(expected)")
                XCTAssertTrue(failure.message.contains(expected), "\(failure.message)\nexpected: \(expected)")
                XCTAssertTrue(failure.hint?.contains("SMPCTL_CONFIG=/dev/null") ?? false, "\(failure.hint ?? "no hint")")
            }
        }
    }

    func testABadEnvironmentValueNamesItsVariable() throws {
        let file = try store("")
        XCTAssertThrowsError(try resolve(ConfigSettings(connection: "udp:127.0.0.1"), environment: ["SMPCTL_TIMEOUT": "-1"], in: file)) { error in
            XCTAssertEqual(CLIError(error).message, "SMPCTL_TIMEOUT=-1: expected seconds greater than 0 and at most 3600")
        }
        XCTAssertThrowsError(try resolve(environment: ["SMPCTL_CONNECTION": "tcp:x"], in: file)) { error in
            XCTAssertTrue(CLIError(error).message.hasPrefix("SMPCTL_CONNECTION: invalid connection string"), CLIError(error).message)
        }
    }

    // MARK: Writing

    func testSavingKeepsTheOtherProfilesAndReadsBackTheSame() throws {
        let file = try store(Self.sample)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let config = try file.update { (config: inout ConfigFile) in
            config.profiles["new"] = ConfigSettings(connection: "ble:name=Zephyr", options: ["pair": "1", "timeout": "2.5"])
            config.profiles["bench"] = nil
            return config
        }
        XCTAssertEqual(try file.load(), config)
        let text = try String(contentsOfFile: file.path, encoding: .utf8)
        XCTAssertTrue(text.contains("  lab:\n    connection: serial:/dev/ttyACM0\n    retries: 4\n    window: 8\n"), text)
        XCTAssertTrue(text.contains("    timeout: 2.5\n"), "numbers stay numbers\n\(text)")
        let siblings = try FileManager.default.contentsOfDirectory(atPath: (file.path as NSString).deletingLastPathComponent)
        XCTAssertEqual(siblings.sorted(), ["config.yaml", "config.yaml.lock"], "no temporary file left; the lock file stays")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int, 0o600, "permissions kept")
    }

    func testADeviceReadsAsEmptyAndIsNeverWritten() throws {
        let null = ConfigStore(path: "/dev/null")
        XCTAssertEqual(try null.load(), ConfigFile())
        XCTAssertThrowsError(try null.update { _ in }) { error in
            XCTAssertEqual(CLIError(error).message, "cannot save profiles in /dev/null: it is not a regular file")
        }
    }

    func testSavingThroughALinkReplacesTheFileItPointsTo() throws {
        let real = try store(Self.sample)
        let link = (real.path as NSString).deletingLastPathComponent + "/link.yaml"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real.path)
        try ConfigStore(path: link).update { $0.profiles["bench"] = nil }
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), real.path, "still a link")
        XCTAssertEqual(try real.load().profileNames, ["lab"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: real.path + ".lock"), "the lock is beside the file, not the link")
    }

    func testALockThatCannotBeTakenIsAnErrorAndNothingIsWritten() throws {
        let file = try store(Self.sample)
        try FileManager.default.createDirectory(atPath: file.path + ".lock", withIntermediateDirectories: false)
        XCTAssertThrowsError(try file.update { $0.profiles["lab"] = nil }) { error in
            let failure = CLIError(error)
            XCTAssertEqual(failure.status, .outputError)
            XCTAssertEqual(failure.message, "cannot lock the config file \(file.path) to change it: \(file.path).lock: Is a directory")
            XCTAssertTrue(failure.hint?.contains("check that the folder is writable") ?? false, failure.hint ?? "no hint")
        }
        XCTAssertEqual(try file.load().profileNames, ["bench", "lab"])
    }

    func testAChangeThatFailsWritesNothing() throws {
        let file = try store(Self.sample)
        XCTAssertThrowsError(try file.update { (config: inout ConfigFile) throws(CLIError) in
            config.profiles = [:]
            throw CLIError(.usage, "no")
        }) { error in
            let failure = CLIError(error)
            XCTAssertEqual(failure.status, .usage)
            XCTAssertEqual(failure.message, "no", "the change's own error")
        }
        XCTAssertEqual(try String(contentsOfFile: file.path, encoding: .utf8), Self.sample)
    }

    // MARK: Size and cost

    func testAFileOverFourMiBIsRefusedBeforeItIsParsed() throws {
        // A comment pads the file out to exactly the limit, which is read.
        let header = "defaults:\n  timeout: 5\n#"
        let full = header + String(repeating: "x", count: ConfigStore.sizeLimit - header.utf8.count - 1) + "\n"
        XCTAssertEqual(try store(full).load().defaults.options, ["timeout": "5"])

        let over = try store(full + "\n")
        let parses = ConfigStore.parses.withLock { $0 }
        XCTAssertThrowsError(try over.load()) { error in
            let failure = CLIError(error)
            XCTAssertEqual(failure.status, .dataError)
            XCTAssertEqual(failure.message, "the config file \(over.path) is 4194305 bytes, more than the 4 MiB (4194304 bytes) smpctl reads")
            XCTAssertTrue(failure.hint?.contains("SMPCTL_CONFIG=/dev/null") ?? false, failure.hint ?? "no hint")
        }
        XCTAssertEqual(ConfigStore.parses.withLock { $0 }, parses, "refused before it is parsed")
        XCTAssertThrowsError(try over.update { _ in }, "nor changed") { error in
            let failure = CLIError(error)
            XCTAssertEqual(failure.status, .dataError)
            XCTAssertEqual(failure.message, "the config file \(over.path) is 4194305 bytes, more than the 4 MiB (4194304 bytes) smpctl reads")
        }
    }

    /// Reading looks at each key of the file once, so that its work grows with the file (Yams'
    /// decoder searched a mapping for each of its keys: 20,000 profiles took a minute and a half).
    /// Counted, not timed: the keys looked at for 2,000 and for 20,000 profiles, and the 20,000
    /// read right.
    func testReadingLooksAtEachKeyOnce() throws {
        for count in [2_000, 20_000] {
            var text = "defaults:\n  timeout: 5\nprofiles:\n"
            for number in 0..<count {
                text += "  dev\(number):\n    connection: udp:10.0.\(number / 256).\(number % 256)\n    retries: 3\n    window: 4\n"
            }
            let file = try store(text)
            let before = ConfigStore.keysRead.withLock { $0 }
            let config = try file.load()
            XCTAssertEqual(
                ConfigStore.keysRead.withLock { $0 } - before, 2 + 1 + count * (1 + 3),
                "\(count) profiles: the two sections, the default, and each profile's name and three keys, once each")
            XCTAssertEqual(config.profiles.count, count)
            XCTAssertEqual(config.profiles["dev\(count - 1)"], ConfigSettings(
                connection: "udp:10.0.\((count - 1) / 256).\((count - 1) % 256)", options: ["retries": "3"], window: 4))
        }
    }

    func testAMergeKeyBringsItsSettingsAndAProfilesOwnWin() throws {
        let file = try store("""
            defaults: &base
              timeout: 5
              window: 2
            profiles:
              lab:
                <<: *base
                connection: udp:127.0.0.1
                window: 8

            """)
        XCTAssertEqual(try file.load().profiles["lab"], ConfigSettings(connection: "udp:127.0.0.1", options: ["timeout": "5"], window: 8))
    }
}
