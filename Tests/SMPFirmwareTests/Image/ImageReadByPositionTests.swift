import Foundation
import SMP
import SMPFirmware
import XCTest

/// Images are read by position: a file costs the bytes its structures need, however large it is
/// (a 4 GiB file of zeros is 32 bytes read), and hashes are computed in bounded pieces.
final class ImageReadByPositionTests: XCTestCase {
    /// A file made up on demand: `prefix` at offset 0, `suffix` at its end, zeros between; every
    /// read is recorded.
    private final class MadeUpFile: UploadSource, @unchecked Sendable {
        let count: Int
        private let prefix: [UInt8]
        private let suffix: [UInt8]
        private let lock = NSLock()
        private var reads: [(offset: Int, length: Int)] = []

        init(count: Int, prefix: [UInt8], suffix: [UInt8] = []) {
            self.count = count
            self.prefix = prefix
            self.suffix = suffix
        }

        var bytesRead: Int { lock.withLock { reads.reduce(0) { $0 + $1.length } } }
        var largestRead: Int { lock.withLock { reads.map(\.length).max() ?? 0 } }

        func read(offset: Int, length: Int) throws -> [UInt8] {
            lock.withLock { reads.append((offset, length)) }
            return (offset..<(offset + length)).map { position in
                if position < prefix.count { return prefix[position] }
                let fromEnd = count - position
                return fromEnd <= suffix.count ? suffix[suffix.count - fromEnd] : 0
            }
        }
    }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// An image header for a body of `bodySize` bytes.
    private static func header(bodySize: UInt32) -> [UInt8] {
        le32(MCUbootImageHeader.magic) + le32(0) + le16(32) + le16(0) + le32(bodySize) + le32(0) + [1, 0] + le16(0) + le32(0) + le32(0)
    }

    func testAFourGibibyteFileOfZerosCostsThirtyTwoBytes() {
        let file = MadeUpFile(count: 4 << 30, prefix: [])
        XCTAssertThrowsError(try MCUbootImage(source: file)) { error in
            XCTAssertEqual(error as? MCUbootImageError, .badMagic(found: 0))
        }
        XCTAssertEqual(file.bytesRead, 32)
    }

    func testAHugeDeclaredBodyReadsOnlyTheHeaderAndTheTLVAreaHead() {
        let file = MadeUpFile(count: 4 << 30, prefix: Self.header(bodySize: 0xf000_0000))
        XCTAssertThrowsError(try MCUbootImage(source: file)) { error in
            XCTAssertEqual(error as? MCUbootImageError, .badTLVAreaMagic(area: .unprotected, offset: 0xf000_0020, found: 0))
        }
        XCTAssertEqual(file.bytesRead, 36)
    }

    func testAFourMebibyteImageIsHashedInBoundedPieces() throws {
        let bodySize = 4 << 20
        let header = Self.header(bodySize: UInt32(bodySize))
        let digest = MCUbootHashAlgorithm.sha256.digest((header + [UInt8](repeating: 0, count: bodySize))[...])
        let area = Self.le16(0x6907) + Self.le16(4 + 4 + 32) + Self.le16(0x10) + Self.le16(32) + digest
        let file = MadeUpFile(count: 32 + bodySize + area.count, prefix: header, suffix: area)
        let image = try MCUbootImage(source: file)
        XCTAssertEqual(image.hashChecks.map(\.status), [.valid])
        XCTAssertEqual(image.imageHash, digest)
        XCTAssertLessThanOrEqual(file.largestRead, 64 * 1024, "no read larger than one hash piece")
    }

    func testAFileAndItsBytesParseTheSame() throws {
        let bodySize = 100_000
        let header = Self.header(bodySize: UInt32(bodySize))
        let body = (0..<bodySize).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let digest = MCUbootHashAlgorithm.sha256.digest((header + body)[...])
        let bytes = header + body + Self.le16(0x6907) + Self.le16(40) + Self.le16(0x10) + Self.le16(32) + digest
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("image-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertEqual(try MCUbootImage(source: FileUploadSource(path: url.path)), try MCUbootImage(bytes: bytes))
    }

    func testAFileThatShrinksWhileItIsReadIsAnError() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("image-\(UUID().uuidString).bin")
        try Data(Self.header(bodySize: 1000) + [UInt8](repeating: 0, count: 1100)).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let source = try FileUploadSource(path: url.path)
        XCTAssertEqual(truncate(url.path, 40), 0)
        XCTAssertThrowsError(try MCUbootImage(source: source)) { error in
            guard case .unreadable(let offset, let reason)? = error as? MCUbootImageError else { return XCTFail("\(error)") }
            XCTAssertEqual(offset, 1032)
            XCTAssertTrue(reason.contains("shrank"), reason)
        }
    }
}
