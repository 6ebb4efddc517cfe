@testable import SMPSerial
import XCTest

/// The opening of an RFC 2217 port against server transcripts: ser2net 4.3's, recorded (it speaks
/// first, answers each setting with its code + 100, and answers nothing for a control line a
/// pseudo-terminal lacks), and servers that refuse or ignore.
final class RFC2217HandshakeTests: XCTestCase {
    private let iac: UInt8 = 0xFF

    /// What ser2net 4.3 sends on connection (`telnet(rfc2217)` accepter), as recorded.
    private var ser2netGreeting: [UInt8] {
        [iac, 251, 3, iac, 253, 3, iac, 251, 1, iac, 254, 1, iac, 253, 0, iac, 251, 0, iac, 253, 44, iac, 250, 44, 107, 0, iac, 240, iac, 253, 3]
    }

    private func answer(_ code: UInt8, _ value: [UInt8]) -> [UInt8] {
        TelnetCodec.subnegotiation(44, [code + 100] + value)
    }

    /// The settings' requests, in order, as they go out.
    private func requests(baud: UInt32, flow: UInt8) -> [UInt8] {
        let rate: [UInt8] = [UInt8(baud >> 24), UInt8(baud >> 16 & 0xFF), UInt8(baud >> 8 & 0xFF), UInt8(baud & 0xFF)]
        return [[5, 8], [5, 11], [12, 1], [1] + rate, [2, 8], [3, 1], [4, 1], [5, flow]]
            .flatMap { TelnetCodec.subnegotiation(44, $0) }
    }

    /// A handshake past the greeting: the settings are out.
    private func greeted(baud: Int = 115_200, hardwareFlowControl: Bool = false) -> RFC2217Handshake {
        var handshake = RFC2217Handshake(baudRate: baud, hardwareFlowControl: hardwareFlowControl)
        _ = handshake.opening()
        let step = handshake.receive(ser2netGreeting)
        XCTAssertNil(step.outcome)
        XCTAssertEqual(step.reply, [iac, 254, 1] + requests(baud: UInt32(baud), flow: hardwareFlowControl ? 3 : 1))
        return handshake
    }

    func testSer2NetOnAPseudoTerminal() {
        var handshake = RFC2217Handshake(baudRate: 115_200, hardwareFlowControl: false)
        XCTAssertEqual(handshake.opening(), [iac, 251, 44, iac, 251, 0, iac, 251, 3, iac, 253, 0, iac, 253, 3])
        // The greeting, with device output the server had buffered: the settings go out, echo is refused.
        let step = handshake.receive(ser2netGreeting + Array("boot log\r\n".utf8))
        XCTAssertNil(step.outcome)
        XCTAssertEqual(step.reply, [iac, 254, 1] + requests(baud: 115_200, flow: 1))
        XCTAssertTrue(handshake.settingsSent)
        // ser2net answers all but DTR and RTS, split over reads, with a line-state notice between.
        let answers = answer(12, [1]) + answer(1, [0, 1, 0xC2, 0]) + answer(2, [8]) + TelnetCodec.subnegotiation(44, [106, 0x60])
            + answer(3, [1]) + answer(4, [1]) + answer(5, [1])
        XCTAssertNil(handshake.receive(Array(answers.prefix(11))).outcome)
        XCTAssertEqual(handshake.receive(Array(answers.dropFirst(11))).outcome, .ready(unconfirmed: ["DTR", "RTS"]))
    }

    /// A value holding 0xFF is doubled inside the request.
    func testABaudRateWith0xFFIsEscaped() {
        var handshake = RFC2217Handshake(baudRate: 0x0100_FF00, hardwareFlowControl: false)
        _ = handshake.opening()
        let step = handshake.receive(ser2netGreeting)
        XCTAssertTrue(step.reply.windowsContains([iac, 250, 44, 1, 0x01, 0x00, 0xFF, 0xFF, 0x00, iac, 240]))
    }

    func testAnotherValueThanAskedIsARefusalNamingBoth() {
        var handshake = greeted(baud: 1_000_000)
        let step = handshake.receive(answer(1, [0, 1, 0xC2, 0]))
        XCTAssertEqual(step.outcome, .failed(.settingRefused("the baud rate", asked: "1000000 baud", applied: "115200 baud")))
        var flow = greeted(hardwareFlowControl: true)
        let refused = flow.receive(answer(1, [0, 1, 0xC2, 0]) + answer(2, [8]) + answer(3, [1]) + answer(4, [1]) + answer(5, [1]))
        XCTAssertEqual(refused.outcome, .failed(.settingRefused("the flow control", asked: "hardware flow control", applied: "no flow control")))
    }

    /// ser2net answers nothing for a rate its port cannot make: the time runs out on that setting.
    func testASettingNeverAnsweredIsNamedWhenTheTimeIsUp() {
        var handshake = greeted(baud: 123_457)
        XCTAssertNil(handshake.receive(answer(5, [8]) + answer(12, [1])).outcome)
        XCTAssertEqual(handshake.timedOut(after: .seconds(3)), .settingUnconfirmed("the baud rate", "123457 baud", .seconds(3)))
    }

    func testServersThatDoNotSpeakRFC2217() {
        // A raw server says nothing at all.
        let silent = RFC2217Handshake(baudRate: 115_200, hardwareFlowControl: false)
        XCTAssertEqual(silent.timedOut(after: .seconds(3)), .noTelnet(.seconds(3)))
        // ser2net's plain telnet accepter refuses the option.
        var plain = RFC2217Handshake(baudRate: 115_200, hardwareFlowControl: false)
        _ = plain.opening()
        XCTAssertEqual(plain.receive([iac, 251, 3, iac, 253, 3, iac, 254, 44]).outcome, .failed(.noComPort))
        // A telnet server that never takes the option up.
        var mute = RFC2217Handshake(baudRate: 115_200, hardwareFlowControl: false)
        _ = mute.opening()
        XCTAssertNil(mute.receive([iac, 251, 3]).outcome)
        XCTAssertEqual(mute.timedOut(after: .seconds(3)), .noComPort)
        // One that refuses binary mode.
        var text = RFC2217Handshake(baudRate: 115_200, hardwareFlowControl: false)
        _ = text.opening()
        XCTAssertEqual(text.receive([iac, 253, 44, iac, 252, 0]).outcome, .failed(.noBinary))
    }

    /// What a server says before closing is kept for the message (ser2net: "Device open failure").
    func testTheServersLastWordsAreKept() {
        var handshake = RFC2217Handshake(baudRate: 115_200, hardwareFlowControl: false)
        _ = handshake.opening()
        _ = handshake.receive(Array(ser2netGreeting.prefix(9)) + Array("\r\nDevice open failure: No such file or directory\r\n".utf8))
        XCTAssertEqual(String(decoding: handshake.serverText, as: UTF8.self), "\r\nDevice open failure: No such file or directory\r\n")
        let error = RFC2217ByteStream.failure(
            .closed(String(decoding: handshake.serverText, as: UTF8.self)), server: SerialServerAddress(kind: .rfc2217, host: "lab", port: 3001))
        XCTAssertEqual(error.message, "serial:rfc2217://lab:3001: the server closed the connection: Device open failure: No such file or directory")
    }
}

private extension Array where Element == UInt8 {
    func windowsContains(_ part: [UInt8]) -> Bool {
        guard part.count <= count else { return false }
        return (0...(count - part.count)).contains { Array(self[$0..<($0 + part.count)]) == part }
    }
}
