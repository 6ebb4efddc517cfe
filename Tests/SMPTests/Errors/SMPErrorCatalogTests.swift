import XCTest
@testable import SMP

/// The error enums of the built-in group descriptors (docs/protocol/errors.md §1.9).
final class SMPErrorCatalogTests: XCTestCase {
    /// Every group enum of docs/protocol/errors.md §1.9, with its number of codes.
    private let expectedSizes: [UInt16: Int] = [0: 8, 1: 35, 2: 6, 3: 9, 8: 18, 9: 4, 10: 5, 11: 18, 63: 5]

    private var enums: [(descriptor: SMPGroupDescriptor, errors: any SMPGroupErrorCode.Type)] {
        SMPGroupCatalog.builtIn.compactMap { descriptor in descriptor.errors.map { (descriptor, $0) } }
    }

    func testCatalogCoversEveryGroupEnum() {
        let groups = enums.map(\.descriptor.group.rawValue)
        XCTAssertEqual(Set(groups), Set(expectedSizes.keys))
        XCTAssertEqual(groups.count, expectedSizes.count)
        for (descriptor, errors) in enums {
            XCTAssertEqual(errors.erasedCodes.count, expectedSizes[descriptor.group.rawValue], descriptor.title)
            XCTAssertEqual(errors.group, descriptor.group, descriptor.title)
        }
    }

    func testCodesRunFromZeroWithoutGaps() {
        for (descriptor, errors) in enums {
            XCTAssertEqual(errors.erasedCodes.map { $0.rawValue }, Array(0..<Int64(errors.erasedCodes.count)), descriptor.title)
        }
    }

    func testEveryCodeHasANonEmptyDistinctNameAndSentence() {
        var names = Set<String>(), sentences = Set<String>()
        for (_, errors) in enums {
            XCTAssertTrue(errors.prefix.hasSuffix("_ERR_"), errors.prefix)
            for code in errors.erasedCodes {
                let name = code.name
                XCTAssertFalse(code.info.suffix.isEmpty, name)
                XCTAssertEqual(code.info.suffix, code.info.suffix.uppercased(), name)
                XCTAssertFalse(code.sentence.isEmpty, name)
                XCTAssertTrue(names.insert(name).inserted, "duplicate name \(name)")
                XCTAssertTrue(sentences.insert(code.sentence).inserted, "duplicate sentence for \(name)")
            }
        }
    }

    func testOnlyCodeZeroTranslatesToSuccess() {
        for (_, errors) in enums {
            for code in errors.erasedCodes {
                XCTAssertEqual(code.legacyReturnCode == .ok, code.rawValue == 0, code.name)
            }
            XCTAssertEqual(errors.erasedCodes.first?.info.suffix, "OK")
            XCTAssertEqual(errors.erasedCode(1)?.info.suffix, "UNKNOWN")
            XCTAssertEqual(errors.erasedCode(1)?.legacyReturnCode, .unknown)
        }
    }

    func testLookupByGroup() {
        XCTAssertEqual(SMPGroupCatalog.errorDescriptor(forGroup: 1, requestGroup: nil)?.title, "image")
        XCTAssertEqual(SMPGroupCatalog.errorDescriptor(forGroup: 63, requestGroup: nil)?.title, "Zephyr basic")
        XCTAssertEqual(SMPGroupCatalog.errorDescriptor(forGroup: 63, requestGroup: 63)?.title, "Zephyr basic")
        XCTAssertEqual(SMPGroupCatalog.errorDescriptor(forGroup: 63, requestGroup: 2)?.title, "statistics")
        XCTAssertEqual(SMPGroupCatalog.errorDescriptor(forGroup: 2, requestGroup: 2)?.title, "statistics")
        XCTAssertNil(SMPGroupCatalog.errorDescriptor(forGroup: 4, requestGroup: nil))
        XCTAssertNil(SMPGroupCatalog.errorDescriptor(forGroup: 200, requestGroup: 2))
    }
}
