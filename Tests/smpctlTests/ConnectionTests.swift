import Foundation
import SMP
import SMPSimulator
import XCTest

/// How smpctl finds the device (-c, SMPCTL_CONNECTION), and every way reaching it can fail.
final class ConnectionTests: XCTestCase {
    // MARK: Where the connection string comes from

    func testTheEnvironmentVariableNamesTheDevice() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["os", "echo", "from the environment"], environment: ["SMPCTL_CONNECTION": served.endpoint])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "from the environment\n")
    }

    func testDashCWinsOverTheEnvironment() async throws {
        let served = try await startDevice()
        // Were the environment used, the first would fail with 64 (malformed) and the second with 69 (refused).
        for other in ["tcp:nowhere", "udp:127.0.0.1:\(try SilentUDPSocket.unusedPort())"] {
            let run = try await SMPCtl.run(
                ["os", "echo", "flag", "-c", served.endpoint, "--timeout", "0.3", "--retries", "0"],
                environment: ["SMPCTL_CONNECTION": other])
            assertSuccess(run)
            XCTAssertEqual(run.stdout, "flag\n")
        }
        let long = try await SMPCtl.run(["os", "echo", "long", "--connection", served.endpoint], environment: ["SMPCTL_CONNECTION": "tcp:x"])
        assertSuccess(long)
    }

    func testNoConnectionAtAllIsAUsageError() async throws {
        let human = try await SMPCtl.run(["os", "echo", "hi"])
        assertExit(human, 64)
        XCTAssertEqual(human.stdout, "")
        assertStderr(human, contains: "error: no device given", "hint: pass -c CONNECTION or set SMPCTL_CONNECTION")

        let json = try await SMPCtl.run(["os", "params", "--json"])
        let error = try assertErrorDocument(json, name: "usage-error", code: 64, messageContains: ["no device given"])
        XCTAssertTrue(error["hint"]?.string?.contains("SMPCTL_CONNECTION") ?? false)
    }

    func testAnEmptyConnectionIsLikeNone() async throws {
        let run = try await SMPCtl.run(["os", "echo", "hi"], environment: ["SMPCTL_CONNECTION": ""])
        assertExit(run, 64)
        assertStderr(run, contains: "no device given")
    }

    func testOptionsInTheConnectionStringApply() async throws {
        let silent = try SilentUDPSocket()
        let run = try await SMPCtl.run(["os", "echo", "-c", silent.endpoint + "?timeout=0.2&retries=1"])
        assertExit(run, 75)
        XCTAssertEqual(silent.drain(), 2, "one request and one retry\n\(run)")
        assertStderr(run, contains: "(2 tries of 200 ms each)")
    }

    func testFlagsWinOverTheConnectionStringsOptions() async throws {
        let silent = try SilentUDPSocket()
        let run = try await SMPCtl.run(["os", "echo", "-c", silent.endpoint + "?timeout=5&retries=5", "--timeout", "0.2", "--retries", "0"])
        assertExit(run, 75)
        XCTAssertEqual(silent.drain(), 1, "--retries 0 wins over retries=5\n\(run)")
        assertStderr(run, contains: "no response within 200 ms")
    }

    // MARK: Malformed connection strings

    func testEachMalformedPartIsNamed() async throws {
        // (connection string, the part the message must quote)
        let cases: [(String, String)] = [
            ("192.0.2.1", "192.0.2.1"),                     // no transport
            ("tcp:192.0.2.1", "tcp"),                       // unknown transport
            ("udp:", "udp:"),                               // empty target
            ("udp:192.0.2.1:99999", "99999"),               // port out of range
            ("udp:192.0.2.1:http", "http"),                 // port not a number
            ("udp:[::1", "[::1"),                           // no closing bracket
            ("udp:[192.0.2.1]:1337", "192.0.2.1"),          // brackets around IPv4
            ("udp:host/path", "host/path"),                 // character in a host name
            ("serial:usb=2fe3:100", "usb=2fe3:100"),        // USB IDs
            ("serial:ttyACM0", "ttyACM0"),                  // serial path
            ("ble:AA:BB:CC:DD:EE", "AA:BB:CC:DD:EE"),       // Bluetooth address
            ("ble:name=", "name="),                         // empty device name
            ("udp:192.0.2.1?speed=9", "speed"),             // unknown option
            ("udp:192.0.2.1?baud=115200", "baud"),          // option of another transport
            ("udp:192.0.2.1?timeout", "timeout"),           // option without a value
            ("udp:192.0.2.1?retries=1&retries=2", "retries=2"), // repeated option
            ("udp:192.0.2.1?timeout=-1", "timeout=-1"),     // option value
            ("udp:192.0.2.1?mtu=1", "mtu=1"),               // option value
        ]
        for (connection, part) in cases {
            let run = try await SMPCtl.run(["os", "echo", "-c", connection])
            assertExit(run, 64)
            XCTAssertEqual(run.stdout, "", connection)
            assertStderr(run, contains: "error: invalid connection string \"\(connection)\": \"\(part)\": ", "hint: accepted forms:")
        }
    }

    func testAMalformedConnectionAsJSON() async throws {
        let run = try await SMPCtl.run(["os", "info", "-c", "udp:192.0.2.1:0", "--json"])
        let error = try assertErrorDocument(run, name: "usage-error", code: 64, messageContains: ["\"0\"", "port"])
        XCTAssertTrue(error["hint"]?.string?.contains("udp:192.0.2.1:1337") ?? false, "the hint lists the accepted forms")
        XCTAssertNil(error["device"])
    }

    func testAMalformedEnvironmentVariableIsReportedToo() async throws {
        let run = try await SMPCtl.run(["os", "echo"], environment: ["SMPCTL_CONNECTION": "udp:192.0.2.1:0"])
        assertExit(run, 64)
        assertStderr(run, contains: "invalid connection string \"udp:192.0.2.1:0\"")
    }

    // MARK: Transport failures

    func testAMissingSerialPortIsATransportErrorWithAHint() async throws {
        for (connection, message) in [
            ("serial:/dev/ttyNOPE7", "no such serial port"), ("serial:usb=ffff:fffe", "no serial port matches usb=ffff:fffe"),
        ] {
            let human = try await SMPCtl.run(["os", "echo", "-c", connection])
            assertExit(human, 69)
            assertStderr(human, contains: message, "hint: ")
            let json = try await SMPCtl.run(["os", "echo", "-c", connection, "--json"])
            try assertErrorDocument(json, name: "transport-error", code: 69, messageContains: [message])
        }
    }

    func testBluetoothWithoutASystemBusIsATransportError() async throws {
        let noBus = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/smpctl-test-bus"]
        for connection in ["ble:AA:BB:CC:DD:EE:FF", "ble:name=Zephyr"] {
            let human = try await SMPCtl.run(["os", "echo", "-c", connection], environment: noBus)
            assertExit(human, 69)
            assertStderr(human, contains: "the system D-Bus is unreachable", "hint: ")
            let json = try await SMPCtl.run(["os", "echo", "-c", connection, "--json"], environment: noBus)
            try assertErrorDocument(json, name: "transport-error", code: 69, messageContains: ["the system D-Bus is unreachable"])
        }
    }

    func testAnUnknownHostIsATransportError() async throws {
        // .invalid never resolves (RFC 6761); looked up in /etc/hosts only, it sends no DNS query.
        let human = try await SMPCtl.run(["os", "echo", "-c", "udp:no-such-device.invalid"], hostsFromFilesOnly: true)
        assertExit(human, 69)
        assertStderr(human, contains: "cannot resolve host \"no-such-device.invalid\"")
        let json = try await SMPCtl.run(["os", "echo", "-c", "udp:no-such-device.invalid", "--json"], hostsFromFilesOnly: true)
        try assertErrorDocument(json, name: "transport-error", code: 69, messageContains: ["cannot resolve"])
    }

    func testNothingListeningIsReportedAtOnce() async throws {
        let port = try SilentUDPSocket.unusedPort()
        let human = try await SMPCtl.run(["os", "echo", "-c", "udp:127.0.0.1:\(port)", "--timeout", "5", "--retries", "3"])
        assertExit(human, 69)
        assertStderr(human, contains: "nothing is listening")

        let json = try await SMPCtl.run(["os", "params", "-c", "udp:127.0.0.1:\(port)", "--timeout", "5", "--json"])
        try assertErrorDocument(json, name: "transport-error", code: 69, messageContains: ["nothing is listening"])
    }

    func testADeviceThatNeverAnswersTimesOutAfterEveryAttempt() async throws {
        let silent = try SilentUDPSocket()
        let run = try await SMPCtl.run(["os", "echo", "-c", silent.endpoint, "--timeout", "0.3", "--retries", "2"])
        assertExit(run, 75)
        XCTAssertEqual(run.stdout, "")
        assertStderr(run, contains: "error: ", "(3 tries of 300 ms each)", "hint: ")
        XCTAssertEqual(silent.drain(), 3, "the request and two retries")
    }

    func testATimeoutAsJSON() async throws {
        let silent = try SilentUDPSocket()
        let run = try await SMPCtl.run(["os", "taskstat", "-c", silent.endpoint, "--timeout", "0.3", "--retries", "0", "--json"])
        let error = try assertErrorDocument(run, name: "timeout", code: 75, messageContains: ["no response within 300 ms"])
        XCTAssertNotNil(error["hint"]?.string)
        XCTAssertNil(error["device"])
        XCTAssertEqual(silent.drain(), 1)
    }

    func testAResetIsSentOnceEvenWhenItsAnswerIsLost() async throws {
        let silent = try SilentUDPSocket()
        let run = try await SMPCtl.run(["os", "reset", "-c", silent.endpoint, "--timeout", "0.3", "--retries", "3"])
        assertExit(run, 75)
        assertStderr(run, contains: "no response within 300 ms")
        XCTAssertEqual(silent.drain(), 1, "a reset is never resent\n\(run)")
    }

    func testADatetimeSetIsSentOnceToo() async throws {
        let silent = try SilentUDPSocket()
        let run = try await SMPCtl.run(["os", "datetime", "--set", "now", "-c", silent.endpoint, "--timeout", "0.3", "--retries", "3"])
        assertExit(run, 75)
        XCTAssertEqual(silent.drain(), 1)
    }

    // MARK: --timeout and --retries

    func testTimeoutAndRetriesAreValidated() async throws {
        let cases: [([String], String?)] = [
            (["--timeout", "0"], "--timeout takes a number of seconds greater than 0 and at most 3600, not 0"),
            (["--timeout=-1"], "--timeout takes a number of seconds greater than 0 and at most 3600, not -1"),
            (["--timeout", "-1"], "--timeout takes a number of seconds greater than 0 and at most 3600, not -1"),
            (["--timeout", "3601"], "--timeout takes a number of seconds greater than 0 and at most 3600, not 3601"),
            (["--timeout", "nan"], "--timeout takes a number of seconds greater than 0 and at most 3600, not nan"),
            (["--timeout", "soon"], "soon"),
            (["--retries", "11"], "--retries takes a whole number of retries from 0 to 10, not 11"),
            (["--retries=-1"], "--retries takes a whole number of retries from 0 to 10, not -1"),
            (["--retries", "-1"], "--retries takes a whole number of retries from 0 to 10, not -1"),
            (["--retries", "1.5"], "1.5"),
        ]
        for (options, message) in cases {
            let run = try await SMPCtl.run(["os", "echo", "-c", "udp:127.0.0.1"] + options)
            assertExit(run, 64)
            XCTAssertEqual(run.stdout, "", "\(options)")
            if let message { assertStderr(run, contains: message) }
        }
    }

    func testTheLimitsThemselvesAreAccepted() async throws {
        let served = try await startDevice()
        for options in [["--timeout", "3600", "--retries", "10"], ["--timeout", "0.05", "--retries", "0"]] {
            let run = try await SMPCtl.run(["os", "echo", "-c", served.endpoint] + options)
            assertSuccess(run)
        }
    }

    // MARK: Verbosity

    func testVeryVerboseDumpsEveryFrameInHexOnStandardError() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["os", "echo", "hi", "-c", served.endpoint, "-vvv"])
        assertExit(run, 0)
        XCTAssertEqual(run.stdout, "hi\n", "diagnostics never reach standard output")
        // Request: write (2) v2 (0x08), length 6, group 0, command 0, then {"d": "hi"}.
        let request = try Regex(#"→ 0a 00 00 06 00 00 [0-9a-f]{2} 00 a1 61 64 62 68 69"#)
        // Response: write response (3) v2, length 7, then {"r": "hi"} as an indefinite-length map.
        let response = try Regex(#"← 0b 00 00 07 00 00 [0-9a-f]{2} 00 bf 61 72 62 68 69 ff"#)
        XCTAssertTrue(run.stderr.contains(request), "no request dump\n\(run)")
        XCTAssertTrue(run.stderr.contains(response), "no response dump\n\(run)")
    }

    func testWithoutVerbosityStandardErrorStaysEmpty() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["os", "echo", "hi", "-c", served.endpoint])
        assertSuccess(run)
    }

    func testVerboseDiagnosticsStayOffStandardOutputWithJSON() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["os", "params", "-c", served.endpoint, "-vvv", "--json"])
        assertExit(run, 0)
        XCTAssertEqual(try run.jsonDocument()["bufferSize"]?.int, 2048)
        XCTAssertTrue(run.stderr.contains("→ "), run.description)
    }
}
