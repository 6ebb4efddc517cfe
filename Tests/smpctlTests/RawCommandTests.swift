import SMP
import SMPSimulator
import XCTest

/// `smpctl raw`: any request, payload as JSON or CBOR hex, response as diagnostic notation or JSON.
final class RawCommandTests: XCTestCase {
    private func raw(_ served: ServedDevice, _ arguments: [String]) async throws -> SMPCtlRun {
        try await SMPCtl.run(["raw"] + arguments + ["-c", served.endpoint])
    }

    func testJSONPayload() async throws {
        let served = try await startDevice()
        let run = try await raw(served, ["--group", "os", "--command", "0", "--op", "write", "--payload-json", #"{"d":"hi"}"#])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "{\"r\": \"hi\"}\n")
    }

    func testCBORPayload() async throws {
        let served = try await startDevice()
        // {"d": "hi"}
        let run = try await raw(served, ["--group", "0", "--command", "0", "--op", "write", "--cbor", "a16164626869"])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "{\"r\": \"hi\"}\n")
    }

    func testCBORPayloadAcceptsUppercaseHex() async throws {
        let served = try await startDevice()
        let run = try await raw(served, ["--group", "os", "--command", "0", "--op", "read", "--cbor", "A16164626F6B"])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "{\"r\": \"ok\"}\n")
    }

    func testJSONOutputDocument() async throws {
        let served = try await startDevice()
        let run = try await raw(served, ["--group", "os", "--command", "7", "--op", "read", "--payload-json", #"{"format":"sn"}"#, "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document.keys, ["command", "group", "response", "schemaVersion", "sequence", "version"])
        XCTAssertEqual(document["group"]?.int, 0)
        XCTAssertEqual(document["command"]?.int, 7)
        XCTAssertEqual(document["version"]?.int, 1, "a Zephyr device answers SMP v2 (version bits 1)")
        let sequence = try XCTUnwrap(document["sequence"]?.int)
        XCTAssertTrue((0...255).contains(sequence))
        XCTAssertEqual(document["response"]?.keys, ["output"])
        XCTAssertEqual(document["response"]?["output"]?.string, "Zephyr zephyr")
    }

    func testEveryCBORKindAsText() async throws {
        let served = try await startDevice(groups: [CBORKindsGroup()])
        let run = try await raw(served, ["--group", "64", "--command", "0", "--op", "read"])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, #"""
            {"int": 4294967296, "neg": -10, "big": -18446744073709551616, "bytes": h'0a1b', "text": "é\"\n", \#
            "array": [1, "two", null], "map": {1: "one", h'00': true, "k": false}, "tag": 1(1700000000), "half": 1.5, \#
            "whole": 2.0, "nan": NaN, "inf": -Infinity, "undef": undefined, "simple": simple(16)}

            """#)
    }

    func testEveryCBORKindAsJSON() async throws {
        let served = try await startDevice(groups: [CBORKindsGroup()])
        let run = try await raw(served, ["--group", "64", "--command", "0", "--op", "read", "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document["group"]?.int, 64)
        // The exact text, since the conversion is part of the documented format (docs/json-output.md).
        let response = try XCTUnwrap(run.stdout.range(of: #""response":"#).map { run.stdout[$0.upperBound...] })
        XCTAssertEqual(String(response), #"""
            {"int":4294967296,"neg":-10,"big":"-18446744073709551616","bytes":"0a1b","text":"é\"\n",\#
            "array":[1,"two",null],"map":{"1":"one","h'00'":true,"k":false},"tag":{"tag":1,"value":1700000000},\#
            "half":1.5,"whole":2.0,"nan":null,"inf":null,"undef":"undefined","simple":"simple(16)"}}

            """#)
        let payload = try XCTUnwrap(document["response"])
        XCTAssertEqual(payload["text"]?.string, "é\"\n")
        XCTAssertEqual(payload["bytes"]?.string, "0a1b")
        XCTAssertEqual(payload["tag"]?["value"]?.int, 1_700_000_000)
        XCTAssertEqual(payload["half"]?.double, 1.5)
        XCTAssertEqual(payload["nan"]?.isNull, true)
    }

    func testLegacyDeviceAnswersVersionZeroWithRC() async throws {
        let served = try await startDevice(.mynewtForTests)
        let run = try await raw(served, ["--group", "os", "--command", "6", "--op", "read", "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document["version"]?.int, 0)
        XCTAssertEqual(document["command"]?.int, 6)
        XCTAssertEqual(document["response"]?["buf_size"]?.int, 2048)
        XCTAssertEqual(document["response"]?["buf_count"]?.int, 4)
        XCTAssertEqual(document["response"]?["rc"]?.int, 0)
    }

    func testGroupByNameOrNumber() async throws {
        let served = try await startDevice()
        for group in ["os", "OS", "0"] {
            let run = try await raw(served, ["--group", group, "--command", "0", "--op", "write", "--payload-json", #"{"d":"\#(group)"}"#, "--json"])
            assertSuccess(run)
            let document = try run.jsonDocument()
            XCTAssertEqual(document["group"]?.int, 0, group)
            XCTAssertEqual(document["response"]?["r"]?.string, group)
        }
        let requests = await served.requests
        XCTAssertEqual(requests, 3)
    }

    func testPayloadTypesSurviveTheRoundTrip() async throws {
        let served = try await startDevice()
        // Integers stay integers: a reset with boot_mode 7 reaches the device as an unsigned integer.
        let run = try await raw(served, ["--group", "os", "--command", "5", "--op", "write", "--payload-json", #"{"force":true,"boot_mode":7}"#])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "{}\n")
        let resets = await served.resets()
        XCTAssertEqual(resets.map(\.force), [true])
        XCTAssertEqual(resets.map(\.bootMode), [7])
    }

    func testNoPayloadSendsAnEmptyMap() async throws {
        let served = try await startDevice()
        let run = try await raw(served, ["--group", "os", "--command", "0", "--op", "read", "--json"])
        assertSuccess(run)
        XCTAssertEqual(try run.jsonDocument()["response"]?["r"]?.string, "")
    }

    func testAnUnknownCommandIsADeviceErrorAndTheResponseIsStillPrinted() async throws {
        let served = try await startDevice()
        let human = try await raw(served, ["--group", "os", "--command", "99", "--op", "read"])
        assertExit(human, 2)
        XCTAssertEqual(human.stdout, "{\"rc\": 8}\n")
        assertStderr(human, contains: "error: ", "MGMT_ERR_ENOTSUP")
    }

    func testADeviceErrorAsJSONIsOneDocumentWithTheResponseAndTheError() async throws {
        let served = try await startDevice()
        let run = try await raw(served, ["--group", "image", "--command", "0", "--op", "read", "--json"])
        assertExit(run, 2)
        assertStderr(run, contains: "error: ", "MGMT_ERR_ENOTSUP")
        let document = try run.jsonDocument()
        XCTAssertEqual(document.keys, ["command", "error", "group", "response", "schemaVersion", "sequence", "version"])
        XCTAssertEqual(document["group"]?.int, 1)
        XCTAssertEqual(document["response"]?.keys, ["rc"])
        XCTAssertEqual(document["response"]?["rc"]?.int, 8)
        XCTAssertEqual(document["error"]?["name"]?.string, "device-error")
        XCTAssertEqual(document["error"]?["code"]?.int, 2)
        XCTAssertEqual(document["error"]?["device"]?["rcName"]?.string, "MGMT_ERR_ENOTSUP")
        XCTAssertEqual(document["error"]?["device"]?["rc"]?.int, 8)
    }

    func testAGroupErrorIsADeviceErrorWithTheGroupsName() async throws {
        let served = try await startDevice()
        let human = try await raw(served, ["--group", "os", "--command", "7", "--op", "read", "--payload-json", #"{"format":"q"}"#])
        assertExit(human, 2)
        XCTAssertEqual(human.stdout, "{\"err\": {\"group\": 0, \"rc\": 2}}\n")
        assertStderr(human, contains: "OS_MGMT_ERR_INVALID_FORMAT")

        let json = try await raw(served, ["--group", "os", "--command", "7", "--op", "read", "--payload-json", #"{"format":"q"}"#, "--json"])
        assertExit(json, 2)
        let document = try json.jsonDocument()
        XCTAssertEqual(document["response"]?["err"]?["rc"]?.int, 2)
        XCTAssertEqual(document["error"]?["device"]?["rcName"]?.string, "OS_MGMT_ERR_INVALID_FORMAT")
        XCTAssertEqual(document["error"]?["device"]?["group"]?.int, 0)
    }

    func testMalformedPayloadsAreDataErrorsAndNothingIsSent() async throws {
        let served = try await startDevice()
        let cases: [([String], String)] = [
            (["--payload-json", "{"], "--payload-json: invalid JSON at character 2"),
            (["--payload-json", #"{"d":"hi",}"#], "--payload-json: invalid JSON"),
            (["--payload-json", #"{"d":'hi'}"#], "--payload-json: invalid JSON"),
            (["--payload-json", "[1,2]"], "--payload-json: the payload must be a JSON object"),
            (["--payload-json", #"{"d":"a","d":"b"}"#], #"--payload-json: invalid JSON at character 10: the key "d" appears twice"#),
            (["--payload-json", #"{"d":18446744073709551616}"#], "--payload-json: invalid JSON at character 6: the integer 18446744073709551616 does not fit in 64 bits"),
            (["--payload-json", #"{"d":-9223372036854775809}"#], "--payload-json: invalid JSON at character 6: the integer -9223372036854775809 does not fit in 64 bits"),
            (["--payload-json", #"{"d":+1}"#], "--payload-json: invalid JSON at character 6: unexpected character '+'"),
            (["--payload-json", #"{"d":01}"#], "--payload-json: invalid JSON at character 6: a number with a leading zero"),
            (["--payload-json", #"{"d":1.}"#], "--payload-json: invalid JSON at character 8: expected digits after the decimal point"),
            (["--payload-json", #"{"d":1e}"#], "--payload-json: invalid JSON at character 8: expected digits in the exponent"),
            (["--payload-json", #"{"d":1e999}"#], "--payload-json: invalid JSON at character 6: the number 1e999 is out of range"),
            (["--payload-json", #""text""#], "--payload-json: the payload must be a JSON object"),
            (["--cbor", "zz"], "--cbor \"zz\" is not hexadecimal"),
            (["--cbor", "a1616"], "--cbor \"a1616\" is not hexadecimal"),
            (["--cbor", "a161"], "--cbor: "),
            (["--cbor", "a16164626869ff"], "--cbor: "),
            (["--cbor", "8101"], "--cbor: the payload is an array; SMP payloads are maps"),
            (["--cbor", "01"], "--cbor: the payload is an integer; SMP payloads are maps"),
            (["--cbor", "6161"], "--cbor: the payload is a text string; SMP payloads are maps"),
        ]
        for (payload, message) in cases {
            let human = try await raw(served, ["--group", "os", "--command", "0", "--op", "write"] + payload)
            assertExit(human, 65)
            XCTAssertEqual(human.stdout, "", "\(payload)")
            assertStderr(human, contains: "error: \(message)")

            let json = try await raw(served, ["--group", "os", "--command", "0", "--op", "write", "--json"] + payload)
            try assertErrorDocument(json, name: "data-error", code: 65, messageContains: [message])
        }
        let frames = await served.frames
        XCTAssertEqual(frames, 0)
    }

    func testUnknownGroupIsAUsageError() async throws {
        for group in ["nope", "70000", "-1"] {
            let run = try await SMPCtl.run(["raw", "--group=\(group)", "--command", "0", "--op", "read", "-c", "udp:127.0.0.1"])
            assertExit(run, 64)
            XCTAssertEqual(run.stdout, "")
            assertStderr(run, contains: "unknown group \"\(group)\"", "os, image")
        }
    }

    func testPayloadOptionsAreExclusiveAndRequiredOptionsChecked() async throws {
        let both = try await SMPCtl.run(["raw", "--group", "os", "--command", "0", "--op", "write", "--payload-json", "{}", "--cbor", "a0", "-c", "udp:127.0.0.1"])
        assertExit(both, 64)
        assertStderr(both, contains: "either --payload-json or --cbor")
        let badOp = try await SMPCtl.run(["raw", "--group", "os", "--command", "0", "--op", "erase", "-c", "udp:127.0.0.1"])
        assertExit(badOp, 64)
        let badCommand = try await SMPCtl.run(["raw", "--group", "os", "--command", "256", "--op", "read", "-c", "udp:127.0.0.1"])
        assertExit(badCommand, 64)
        assertStderr(badCommand, contains: "--command takes a command ID from 0 to 255, not 256")
        let missing = try await SMPCtl.run(["raw", "--group", "os", "--op", "read", "-c", "udp:127.0.0.1"])
        assertExit(missing, 64)
        assertStderr(missing, contains: "--command")
    }
}
