import XCTest
@testable import SMP

final class SMPErrorCatalogTests: XCTestCase {
    /// Every group enum of §1.9, with its number of codes.
    private let expectedSizes: [UInt16: Int] = [0: 8, 1: 35, 2: 6, 3: 9, 8: 18, 9: 4, 10: 5, 11: 18, 63: 5]

    func testCatalogCoversEveryGroupEnum() {
        let groups = SMPErrorCatalog.tables.map(\.group)
        XCTAssertEqual(Set(groups), Set(expectedSizes.keys))
        XCTAssertEqual(groups.count, expectedSizes.count)
        for table in SMPErrorCatalog.tables {
            XCTAssertEqual(table.entries.count, expectedSizes[table.group], table.title)
        }
    }

    func testCodesRunFromZeroWithoutGaps() {
        for table in SMPErrorCatalog.tables {
            XCTAssertEqual(table.entries.map(\.code), Array(0..<Int64(table.entries.count)), table.title)
        }
    }

    func testEveryCodeHasANonEmptyDistinctNameAndSentence() {
        var names = Set<String>(), sentences = Set<String>()
        for table in SMPErrorCatalog.tables {
            XCTAssertTrue(table.prefix.hasSuffix("_ERR_"), table.prefix)
            for entry in table.entries {
                let name = table.name(for: entry.code)
                XCTAssertFalse(entry.suffix.isEmpty, name)
                XCTAssertEqual(entry.suffix, entry.suffix.uppercased(), name)
                XCTAssertFalse(entry.sentence.isEmpty, name)
                XCTAssertTrue(names.insert(name).inserted, "duplicate name \(name)")
                XCTAssertTrue(sentences.insert(entry.sentence).inserted, "duplicate sentence for \(name)")
            }
        }
    }

    func testOnlyCodeZeroTranslatesToSuccess() {
        for table in SMPErrorCatalog.tables {
            for entry in table.entries {
                XCTAssertEqual(entry.legacy == .ok, entry.code == 0, table.name(for: entry.code))
            }
            XCTAssertEqual(table.entries.first?.suffix, "OK")
            XCTAssertEqual(table.entry(for: 1)?.suffix, "UNKNOWN")
            XCTAssertEqual(table.entry(for: 1)?.legacy, .unknown)
        }
    }

    func testLookupByGroup() {
        XCTAssertEqual(SMPErrorCatalog.table(forGroup: 1, requestGroup: nil)?.title, "image")
        XCTAssertEqual(SMPErrorCatalog.table(forGroup: 63, requestGroup: nil)?.title, "Zephyr basic")
        XCTAssertEqual(SMPErrorCatalog.table(forGroup: 63, requestGroup: 63)?.title, "Zephyr basic")
        XCTAssertEqual(SMPErrorCatalog.table(forGroup: 63, requestGroup: 2)?.title, "statistics")
        XCTAssertEqual(SMPErrorCatalog.table(forGroup: 2, requestGroup: 2)?.title, "statistics")
        XCTAssertNil(SMPErrorCatalog.table(forGroup: 4, requestGroup: nil))
        XCTAssertNil(SMPErrorCatalog.table(forGroup: 200, requestGroup: 2))
    }
}
