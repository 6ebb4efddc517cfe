@testable import NordicDFU
import XCTest

final class FirmwareTypeTests: XCTestCase {
    func testImagesGoInTheOrderTheSDKInstallsThem() {
        let sorted = DFUFirmwareType.allCases.shuffled().sorted()
        XCTAssertEqual(sorted, [.softDeviceBootloader, .softDevice, .bootloader, .application, .externalApplication])
    }

    func testLegacyModeBitsAndManifestKeys() {
        XCTAssertEqual(DFUFirmwareType.softDeviceBootloader.legacyModeBits, 0x03)
        XCTAssertEqual(DFUFirmwareType.application.legacyModeBits, 0x04)
        XCTAssertEqual(DFUFirmwareType.softDeviceBootloader.manifestKey, "softdevice_bootloader")
        XCTAssertEqual(DFUFirmwareType(rawValue: 3), .softDeviceBootloader)
    }
}
