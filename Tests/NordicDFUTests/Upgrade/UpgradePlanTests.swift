@testable import NordicDFU
import SMPFirmware
import XCTest

final class UpgradePlanTests: XCTestCase {
    private func image(_ type: DFUFirmwareType, _ name: String, bytes: Int = 100, initPacket: Int = 20) -> DFUUpgradeImage {
        DFUUpgradeImage(type: type, fileName: name, firmware: Array(repeating: 0xA5, count: bytes), initPacket: Array(repeating: 1, count: initPacket))
    }

    func testImagesAreSentInTheSDKsOrderWithAWaitBetween() {
        let plan = NordicDFUUpgradePlan(
            dfuProtocol: .secure, images: [image(.application, "app.bin"), image(.softDeviceBootloader, "sd_bl.bin", bytes: 300)])
        XCTAssertEqual(plan.images.map(\.type), [.softDeviceBootloader, .application])
        XCTAssertEqual(plan.steps.map(\.name), ["upload", "wait", "upload"])
        XCTAssertEqual(plan.summary, "plan (Nordic Secure DFU): 2 images")
        XCTAssertEqual(plan.steps[0].summary, "send the SoftDevice and bootloader sd_bl.bin (300 bytes) and its init packet [1/2]")
        XCTAssertEqual(plan.steps[1].summary, "wait for the bootloader to answer again after installing the SoftDevice and bootloader")
        XCTAssertEqual(plan.steps[2].upload?.size, 100)
        XCTAssertEqual(plan.decisionSummaries, [
            "SoftDevice and bootloader sd_bl.bin (300 bytes), init packet 20 bytes", "application app.bin (100 bytes), init packet 20 bytes",
        ])
        XCTAssertFalse(plan.isNothingToDo)
    }

    func testABareApplicationHasNoInitPacketAndOneStep() {
        let plan = NordicDFUUpgradePlan(dfuProtocol: .legacy, images: [image(.application, "app.bin", initPacket: 0)])
        XCTAssertEqual(plan.steps.count, 1)
        XCTAssertEqual(plan.steps[0].summary, "send the application app.bin (100 bytes)")
        XCTAssertEqual(plan.decisionSummaries, ["application app.bin (100 bytes), no init packet"])
        XCTAssertEqual(
            plan.interruptionNote(during: plan.steps[0]),
            "a legacy DFU bootloader keeps nothing of an interrupted image: the same command sends it again from its start")
        let secure = NordicDFUUpgradePlan(dfuProtocol: .secure, images: [image(.application, "app.bin")])
        XCTAssertNil(secure.interruptionNote(during: secure.steps[0]), "one image on Secure DFU: a rerun continues")
    }

    func testAnInterruptionAfterTheFirstImageSaysTheRerunSendsItAgain() throws {
        let plan = NordicDFUUpgradePlan(dfuProtocol: .secure, images: [image(.bootloader, "bl.bin"), image(.application, "app.bin")])
        XCTAssertNil(plan.interruptionNote(during: plan.steps[0]), "nothing installed yet")
        let note = try XCTUnwrap(plan.interruptionNote(during: plan.steps[2]))
        XCTAssertTrue(note.hasPrefix("the device already installed the bootloader; running the same command again sends it again"), note)
    }

    func testTheReportNamesWhatWasInstalled() {
        let plan = NordicDFUUpgradePlan(dfuProtocol: .secure, images: [image(.application, "app.bin")])
        let report = NordicDFUUpgradeReport(plan: plan, steps: [], uploads: [], seconds: 1)
        XCTAssertEqual(report.summary, "Nordic Secure DFU")
        XCTAssertEqual(report.finalSummaries, ["installed: application; the bootloader starts the new application"])
        XCTAssertEqual(report.fields, [UpgradeField("bootloader", .string("Nordic Secure DFU")), UpgradeField("installed", .array([.string("application")]))])
    }
}
