import Foundation
import SMPFirmware
import SMPTestSupport
import XCTest

/// A RAM-load image is checked against its own vector table: MCUboot copies it to its load
/// address and starts the reset handler there, so an image signed for another address than its
/// code (`imgtool sign --load-addr` with the wrong address) is refused before it is sent.
final class LoadAddressTests: XCTestCase {
    private let linked: UInt32 = 0x2024_0000

    func testAnImageLoadedWhereItsCodeIsLinkedPasses() throws {
        let image = try MCUbootImage(bytes: RAMLoadTestImage.file(linkedAt: linked, loadAddress: linked))
        XCTAssertNil(image.loadAddressMismatch)
        XCTAssertNoThrow(try image.verifyLoadAddress())
        let checked = try MCUbootUpgradeImage.checked(RAMLoadTestImage.file(linkedAt: linked, loadAddress: linked), fileName: "app.bin")
        XCTAssertEqual(checked.image, image)
        XCTAssertEqual(checked.hash, image.imageHash)
    }

    func testAnImageSignedForAnotherAddressIsRefusedNamingBoth() throws {
        let bytes = RAMLoadTestImage.file(linkedAt: linked, loadAddress: 0x2010_0000)
        let image = try MCUbootImage(bytes: bytes)
        let mismatch = try XCTUnwrap(image.loadAddressMismatch)
        XCTAssertEqual(mismatch.loadAddress, 0x2010_0000)
        XCTAssertEqual(mismatch.resetHandler, linked + RAMLoadTestImage.handlerOffsets[0])
        XCTAssertEqual(mismatch.loadEnd, 0x2010_0000 + UInt64(image.totalSize))
        XCTAssertEqual(mismatch.resetVectorOffset, 32 + 4)
        XCTAssertThrowsError(try MCUbootUpgradeImage.checked(bytes, fileName: "app.bin")) { error in
            guard case .invalidImage(let name, let reason)? = error as? UpgradePlanError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "app.bin")
            XCTAssertTrue(reason.contains("0x20100000") && reason.contains("0x20240120"), reason)
            XCTAssertTrue(reason.contains("offset 0x24") && reason.contains("imgtool sign --load-addr"), reason)
        }
    }

    /// MCUboot copies header, body and TLVs: a handler at the copy's end is outside it, one at
    /// its last byte inside (and an image whose handlers are partly inside is not judged).
    func testTheCopyEndsAfterTheTLVs() throws {
        let size = try MCUbootImage(bytes: RAMLoadTestImage.file(linkedAt: linked, loadAddress: linked)).totalSize
        let justBelow = linked + RAMLoadTestImage.handlerOffsets[0] - UInt32(size)
        XCTAssertNotNil(try MCUbootImage(bytes: RAMLoadTestImage.file(linkedAt: linked, loadAddress: justBelow)).loadAddressMismatch)
        XCTAssertNil(try MCUbootImage(bytes: RAMLoadTestImage.file(linkedAt: linked, loadAddress: justBelow + 1)).loadAddressMismatch)
    }

    /// Only what is surely a Cortex-M vector table of a RAM-load image is judged: not an image
    /// without RAM_LOAD, nor a body whose words are not a stack pointer and three Thumb handlers
    /// close together (another architecture, random bytes).
    func testWhatIsNotACortexMRAMLoadImageIsNotJudged() throws {
        let elsewhere = RAMLoadTestImage.file(linkedAt: linked, loadAddress: 0x2010_0000)
        var notRAMLoad = elsewhere
        notRAMLoad[16] = 0
        var evenReset = elsewhere
        evenReset[32 + 4] &= 0xFE
        var unalignedStack = elsewhere
        unalignedStack[32] |= 2
        var farApart = elsewhere
        farApart[32 + 12 + 3] ^= 0x40
        for (name, bytes) in [("no RAM_LOAD", notRAMLoad), ("even reset", evenReset), ("unaligned stack", unalignedStack), ("far apart", farApart)] {
            // The content changed, so the hash TLV no longer matches: the check does not look at it.
            XCTAssertNil(try MCUbootImage(bytes: bytes).loadAddressMismatch, name)
        }
        let seed = try Data(contentsOf: URL(fileURLWithPath: ExternalTool.script("image/fuzz-seeds/ram-load.bin")))
        let random = try MCUbootImage(bytes: [UInt8](seed))
        XCTAssertTrue(random.header.flags.contains(.ramLoad))
        XCTAssertNil(random.loadAddressMismatch, "imgtool's RAM-load seed has random bytes for a body")
    }
}
