import SMP
import SMPSimulator
import SMPUDP
import XCTest

/// Responses a client must discard, from a hand-written device: wrong sequence number, truncated
/// header, length disagreeing with the datagram, invalid CBOR, huge declared length.
final class UDPMalformedResponseTests: XCTestCase {
    /// A malformed variant of a correct answer.
    private enum Damage: CaseIterable {
        case wrongSequence, truncatedHeader, longerThanDatagram, invalidCBOR, hugeLength, notAResponse, wrongCommand

        func apply(to answer: [UInt8]) -> [UInt8] {
            var bytes = answer
            switch self {
            case .wrongSequence: bytes[6] &+= 1
            case .truncatedHeader: bytes = Array(bytes.prefix(5))
            case .longerThanDatagram: bytes[3] &+= 4
            case .invalidCBOR: bytes[8] = 0xFC
            case .hugeLength: bytes[2] = 0xFF; bytes[3] = 0xFF
            case .notAResponse: bytes[0] &= ~0x01
            case .wrongCommand: bytes[7] = 9
            }
            return bytes
        }

        var reason: SMPClientStatistics.DiscardReason {
            switch self {
            case .wrongSequence: return .unmatchedSequence
            case .truncatedHeader: return .truncatedHeader
            case .longerThanDatagram, .hugeLength: return .lengthMismatch
            case .invalidCBOR: return .invalidPayload
            case .notAResponse: return .notAResponse
            case .wrongCommand: return .mismatchedResponse
            }
        }
    }

    func testMalformedResponseIsDiscardedAndTheCorrectOneAccepted() async throws {
        for damage in Damage.allCases {
            let device = ScriptedDevice { request, index in
                let answer = ScriptedDevice.echoAnswer(to: request)
                return index == 0 ? [damage.apply(to: answer), answer] : []
            }
            let (server, client) = try await device.start(client: SMPClientConfiguration(timeout: .seconds(2)))
            do throws(SMPError) {
                let text = try await client.send(OSEcho("\(damage)"))
                XCTAssertEqual(text, "\(damage)")
            } catch {
                XCTFail("\(damage): \(error)")
            }
            let statistics = await client.statistics
            XCTAssertEqual(statistics.discarded[damage.reason], 1, "\(damage): \(statistics.discarded)")
            XCTAssertEqual(statistics.totalDiscarded, 1, "\(damage)")
            await client.close()
            await server.stop()
        }
    }

    func testOnlyMalformedResponsesEndInTimeout() async throws {
        for damage in Damage.allCases {
            let device = ScriptedDevice { request, _ in [damage.apply(to: ScriptedDevice.echoAnswer(to: request))] }
            let (server, client) = try await device.start(client: SMPClientConfiguration(timeout: .milliseconds(150), retries: 1))
            do throws(SMPError) {
                _ = try await client.send(OSEcho("\(damage)"))
                XCTFail("\(damage): a malformed answer was accepted")
            } catch {
                guard case .timeout(_, _, let attempts, _, _) = error else { return XCTFail("\(damage): expected a timeout, got \(error)") }
                XCTAssertEqual(attempts, 2, "\(damage)")
            }
            let statistics = await client.statistics
            XCTAssertEqual(statistics.discarded[damage.reason], 2, "\(damage): \(statistics.discarded)")
            let received = await device.received.count
            XCTAssertEqual(received, 2, "\(damage)")
            await client.close()
            await server.stop()
        }
    }

    func testGarbageDatagramsNeverDisturbTheClient() async throws {
        let device = ScriptedDevice { request, _ in
            var random = SystemRandomNumberGenerator()
            let garbage = (0..<20).map { _ in
                (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
            return garbage + [ScriptedDevice.echoAnswer(to: request)]
        }
        let (server, client) = try await device.start(client: SMPClientConfiguration(timeout: .seconds(2)))
        for index in 0..<20 {
            let text = try await client.send(OSEcho("\(index)"))
            XCTAssertEqual(text, "\(index)")
        }
        await client.close()
        await server.stop()
    }
}
