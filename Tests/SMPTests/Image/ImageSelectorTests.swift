import SMP
import XCTest

/// ``ImageSelector``: reading `slot:N`, versions and hash prefixes, and resolving them against
/// image lists as devices report them (one image, two images, equal versions, no hashes).
final class ImageSelectorTests: XCTestCase {
    private let running = [UInt8]([0x12, 0x34, 0xAB, 0xCD]) + [UInt8](repeating: 0x01, count: 28)
    private let pending = [UInt8]([0x12, 0x34, 0x00, 0x00]) + [UInt8](repeating: 0x02, count: 28)
    private let network = [UInt8]([0x9F, 0x00, 0x00, 0x00]) + [UInt8](repeating: 0x03, count: 28)

    private var twoSlots: ImageStateList {
        ImageStateList(images: [
            ImageSlotState(slot: 0, version: "1.0.0", hash: running, bootable: true, confirmed: true, active: true),
            ImageSlotState(slot: 1, version: "1.1.0", hash: pending, bootable: true),
        ])
    }

    private var multiImage: ImageStateList {
        ImageStateList(images: twoSlots.images + [
            ImageSlotState(image: 1, slot: 0, version: "1.1.0", hash: network, bootable: true, confirmed: true, active: true),
            ImageSlotState(image: 1, slot: 1, version: "0.9.0.12", hash: running, bootable: true),
        ])
    }

    func testParsing() throws {
        XCTAssertEqual(try ImageSelector(parsing: "slot:1"), .slot(1, image: nil))
        XCTAssertEqual(try ImageSelector(parsing: "SLOT:0", image: 1), .slot(0, image: 1))
        XCTAssertEqual(try ImageSelector(parsing: "1.2.3"), .version([1, 2, 3], image: nil))
        XCTAssertEqual(try ImageSelector(parsing: "v1.2.3.4"), .version([1, 2, 3, 4], image: nil))
        XCTAssertEqual(try ImageSelector(parsing: "v2"), .version([2], image: nil))
        XCTAssertEqual(try ImageSelector(parsing: "1.2"), .version([1, 2], image: nil))
        XCTAssertEqual(try ImageSelector(parsing: "1234"), .hashPrefix("1234", image: nil), "a bare number is a hash prefix")
        XCTAssertEqual(try ImageSelector(parsing: " 1234ABCD "), .hashPrefix("1234abcd", image: nil))
        XCTAssertEqual(try ImageSelector(parsing: "abcde"), .hashPrefix("abcde", image: nil), "odd lengths are prefixes too")
        for bad in ["", "abc", "slot:", "slot:x", "slot:-1", "1..2", "1.2.3.4.5", "v", "vx", "1.2a", "xyz1234", "12 34"] {
            XCTAssertThrowsError(try ImageSelector(parsing: bad), bad) { error in
                XCTAssertEqual(error as? ImageSelectorError, .malformed(bad))
                XCTAssertTrue("\(error)".contains("expected slot:N, a version"), "\(error)")
            }
        }
    }

    func testResolvesEachForm() throws {
        let list = twoSlots
        XCTAssertEqual(try ImageSelector(parsing: "slot:1").hash(in: list), pending)
        XCTAssertEqual(try ImageSelector(parsing: "1.1.0").hash(in: list), pending)
        XCTAssertEqual(try ImageSelector(parsing: "v1.1").hash(in: list), pending, "missing components are 0")
        XCTAssertEqual(try ImageSelector(parsing: "1.1.0.0").hash(in: list), pending)
        XCTAssertEqual(try ImageSelector(parsing: "123400").hash(in: list), pending)
        XCTAssertEqual(try ImageSelector(parsing: "1234abcd").hash(in: list), running, "the short hash `image list` prints")
        XCTAssertEqual(try ImageSelector(parsing: Hex.string(running)).hash(in: list), running)
        XCTAssertEqual(try ImageSelector(parsing: "slot:0").resolve(in: list).active, true)
    }

    func testAmbiguousAndMissingNameTheCandidates() throws {
        let list = twoSlots
        XCTAssertThrowsError(try ImageSelector(parsing: "1234").hash(in: list)) { error in
            guard case .ambiguous(_, let matches) = error as? ImageSelectorError else { return XCTFail("\(error)") }
            XCTAssertEqual(matches.map(\.slot), [0, 1])
            XCTAssertEqual("\(error)", "hash 1234 is ambiguous: 2 images match")
        }
        XCTAssertThrowsError(try ImageSelector(parsing: "2.0.0").resolve(in: list)) { error in
            XCTAssertEqual(error as? ImageSelectorError, .noMatch(.version([2, 0, 0], image: nil), candidates: list.images))
            XCTAssertEqual((error as? ImageSelectorError)?.candidates.count, 2)
            XCTAssertEqual("\(error)", "no image matches version 2.0.0")
        }
        XCTAssertThrowsError(try ImageSelector(parsing: "slot:3").resolve(in: ImageStateList(images: []))) { error in
            XCTAssertEqual("\(error)", "no image matches slot 3: the device lists no images")
        }
    }

    func testMultiImageNeedsTheImageNumberWhenSlotsOrVersionsRepeat() throws {
        let list = multiImage
        XCTAssertThrowsError(try ImageSelector(parsing: "slot:1").resolve(in: list)) { error in
            XCTAssertEqual((error as? ImageSelectorError)?.candidates.map(\.image), [0, 1])
        }
        XCTAssertThrowsError(try ImageSelector(parsing: "1.1.0").resolve(in: list), "two images at 1.1.0, different hashes") { error in
            guard case .ambiguous(_, let matches) = error as? ImageSelectorError else { return XCTFail("\(error)") }
            XCTAssertEqual(matches.map(\.image), [0, 1])
        }
        XCTAssertEqual(try ImageSelector(parsing: "slot:1", image: 1).resolve(in: list).version, "0.9.0.12")
        XCTAssertEqual(try ImageSelector(parsing: "1.1.0", image: 1).hash(in: list), network)
        XCTAssertEqual(try ImageSelector(parsing: "9f00").hash(in: list), network)
        XCTAssertEqual(
            try ImageSelector(parsing: "1234ab").resolve(in: list).image, 0,
            "the same hash in two entries is one image: the first is taken")
        XCTAssertEqual(try ImageSelector(parsing: "1234ab", image: 1).resolve(in: list).slot, 1)
        XCTAssertEqual("\(ImageSelector.slot(1, image: 1))", "slot 1 of image 1")
    }

    func testEntriesWithoutHashes() throws {
        let recovery = ImageStateList(images: [ImageSlotState(slot: 0, version: "1.0.0", hash: nil)])
        XCTAssertThrowsError(try ImageSelector(parsing: "slot:0").hash(in: recovery)) { error in
            XCTAssertEqual(error as? ImageSelectorError, .noHash(recovery.images[0]))
        }
        XCTAssertThrowsError(try ImageSelector(parsing: "abcd").resolve(in: recovery), "a prefix never matches a missing hash") { error in
            XCTAssertEqual(error as? ImageSelectorError, .noMatch(.hashPrefix("abcd", image: nil), candidates: recovery.images))
        }
    }
}
