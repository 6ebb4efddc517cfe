import SMP
import XCTest

/// How the answers of a device tell MCUboot's serial recovery from an application.
final class ServerRecognitionTests: XCTestCase {
    private typealias Seen = ServerRecognition.Observations
    private let unflagged = [ImageSlotState(slot: 0, version: "1.0.0", hash: nil)]
    private let flagged = [ImageSlotState(slot: 0, version: "1.0.0", hash: nil, bootable: true, confirmed: true, active: true)]

    func testBootloaderInfoMeansAnApplication() {
        XCTAssertEqual(ServerRecognition.decide(Seen(answersBootloaderInfo: true))?.role, .application)
    }

    func testNoImageGroupMeansAnApplication() {
        XCTAssertEqual(ServerRecognition.decide(Seen(answersBootloaderInfo: false, lacksImageGroup: true))?.role, .application)
    }

    func testImagesWithoutFlagsMeanTheRecovery() {
        let decided = ServerRecognition.decide(Seen(answersBootloaderInfo: false, images: unflagged))
        XCTAssertEqual(decided?.role, .serialRecovery)
        XCTAssertTrue(decided?.evidence.first?.contains("flags") == true, "\(String(describing: decided))")
    }

    func testNothingDecidedUntilTheImageListIsKnown() {
        XCTAssertNil(ServerRecognition.decide(Seen(answersBootloaderInfo: false)))
        XCTAssertNil(ServerRecognition.decide(Seen(answersBootloaderInfo: false, images: flagged)))
        XCTAssertNil(ServerRecognition.decide(Seen(answersBootloaderInfo: false, images: [])))
    }

    func testFlaggedImagesAreDecidedByApplicationInfoAndTheBufferCount() {
        XCTAssertEqual(ServerRecognition.decide(Seen(answersBootloaderInfo: false, images: flagged, answersApplicationInfo: true))?.role, .application)
        XCTAssertEqual(
            ServerRecognition.decide(Seen(answersBootloaderInfo: false, images: flagged, answersApplicationInfo: false, bufferCount: 1))?.role,
            .serialRecovery)
        XCTAssertEqual(
            ServerRecognition.decide(Seen(answersBootloaderInfo: false, images: flagged, answersApplicationInfo: false, bufferCount: 4))?.role,
            .application)
    }

    func testMCUbootOptionsNameTheRecoveryCommands() {
        func request(_ group: SMPGroup, _ command: UInt8, _ operation: SMPOperation = .read) -> SMPRequestSummary {
            SMPRequestSummary(SMPRequest(group: group, command: command, operation: operation, payload: [:]))
        }
        XCTAssertEqual(MCUbootRecoveryOptions.enablingOption(for: request(.os, OSCommandID.echo, .write)), "CONFIG_BOOT_MGMT_ECHO")
        XCTAssertEqual(MCUbootRecoveryOptions.enablingOption(for: request(.os, OSCommandID.parameters)), "CONFIG_BOOT_MGMT_MCUMGR_PARAMS")
        XCTAssertEqual(MCUbootRecoveryOptions.enablingOption(for: request(.image, ImageCommandID.state, .write)), "CONFIG_BOOT_SERIAL_IMG_GRP_IMAGE_STATE")
        XCTAssertEqual(MCUbootRecoveryOptions.enablingOption(for: request(.image, ImageCommandID.slotInfo)), "CONFIG_BOOT_SERIAL_IMG_GRP_SLOT_INFO")
        XCTAssertNil(MCUbootRecoveryOptions.enablingOption(for: request(.statistics, 1)))
    }
}
