@testable import SMPSerial
import XCTest

/// The telnet layer of RFC 2217 ports: 0xFF doubled both ways (in subnegotiations too), commands
/// taken out of the data wherever the reads cut them, and a subnegotiation bounded in size.
final class TelnetCodecTests: XCTestCase {
    private let iac: UInt8 = 0xFF

    func testDataFullOf0xFFSurvivesEscapingAndDecoding() {
        let data: [UInt8] = [0xFF, 0x00, 0xFF, 0xFF, 0x0D, 0x0A, 0x0D, 0x00, 0xFE, 0xFF]
        let escaped = TelnetCodec.escape(data)
        XCTAssertEqual(escaped, [0xFF, 0xFF, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x0D, 0x0A, 0x0D, 0x00, 0xFE, 0xFF, 0xFF])
        var codec = TelnetCodec()
        let decoded = codec.decode(escaped)
        XCTAssertEqual(decoded.data, data)
        XCTAssertEqual(decoded.commands, [])
    }

    func testCommandsCutAcrossReadsAreTakenOut() {
        let stream: [UInt8] = [0x41, iac, 251, 44, 0x42, iac, iac, iac, 250, 44, 106, iac, iac, 0x01, iac, 240, 0x43, iac, 241, 0x44]
        // Every split point gives the same data and commands.
        for cut in 0...stream.count {
            var codec = TelnetCodec()
            let first = codec.decode(Array(stream[..<cut]))
            let second = codec.decode(Array(stream[cut...]))
            XCTAssertEqual(first.data + second.data, [0x41, 0x42, 0xFF, 0x43, 0x44], "cut at \(cut)")
            XCTAssertEqual(first.commands + second.commands,
                           [.negotiation(.will, option: 44), .subnegotiation(option: 44, [106, 0xFF, 0x01])], "cut at \(cut)")
        }
    }

    func testASubnegotiationIsBoundedAndAnUnendedOneIsDropped() {
        var codec = TelnetCodec()
        let long = [iac, 250, 44, 100] + [UInt8](repeating: 0x61, count: 10_000) + [iac, 240, 0x5A]
        let decoded = codec.decode(long)
        XCTAssertEqual(decoded.data, [0x5A])
        guard case .subnegotiation(let option, let bytes)? = decoded.commands.first else { return XCTFail("\(decoded.commands)") }
        XCTAssertEqual(option, 44)
        XCTAssertEqual(bytes.count, TelnetCodec.subnegotiationLimit)
        // IAC followed by a command other than SE ends the subnegotiation without it; the command counts.
        let broken = codec.decode([iac, 250, 44, 101, iac, 253, 3, 0x5B])
        XCTAssertEqual(broken.data, [0x5B])
        XCTAssertEqual(broken.commands, [.negotiation(.do, option: 3)])
    }

    func testSubnegotiationBytesAreEscaped() {
        XCTAssertEqual(TelnetCodec.subnegotiation(44, [1, 0x00, 0x00, 0xFF, 0xFF]), [iac, 250, 44, 1, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, iac, 240])
    }

    /// A request for an option smpctl does not do is refused once; one it does is agreed once;
    /// the answers to its own requests are not answered again.
    func testOptionRequestsAreAnsweredOnce() {
        var options = TelnetOptionState()
        let opening = options.opening()
        XCTAssertEqual(opening, [iac, 251, 44, iac, 251, 0, iac, 251, 3, iac, 253, 0, iac, 253, 3])
        XCTAssertEqual(options.answer(.will, TelnetCodec.Option.echo), .reply([iac, 254, 1]))
        XCTAssertEqual(options.answer(.will, TelnetCodec.Option.echo), .nothing)
        XCTAssertEqual(options.answer(.do, 24), .reply([iac, 252, 24]))
        XCTAssertEqual(options.answer(.do, TelnetCodec.Option.comPort), .nothing)
        XCTAssertTrue(options.comPortAgreed)
        XCTAssertFalse(options.binaryAgreed)
        XCTAssertEqual(options.answer(.do, TelnetCodec.Option.binary), .nothing)
        XCTAssertEqual(options.answer(.will, TelnetCodec.Option.binary), .nothing)
        XCTAssertTrue(options.binaryAgreed)
        XCTAssertEqual(options.answer(.dont, TelnetCodec.Option.comPort), .refused(.noComPort))
        XCTAssertEqual(options.answer(.wont, TelnetCodec.Option.binary), .refused(.noBinary))
    }

    /// The open stream answers a late request with its next write, before the data.
    func testALateRequestIsAnsweredBeforeTheNextData() {
        var session = TelnetSessionState(codec: TelnetCodec(), options: TelnetOptionState())
        XCTAssertEqual(session.receive([0x31, iac, 253, 24, 0x32, iac, 250, 44, 106, 0x10, iac, 240]), [0x31, 0x32])
        XCTAssertEqual(session.send([0xFF, 0x01]), [iac, 252, 24, 0xFF, 0xFF, 0x01])
        XCTAssertEqual(session.send([0x02]), [0x02])
    }
}
