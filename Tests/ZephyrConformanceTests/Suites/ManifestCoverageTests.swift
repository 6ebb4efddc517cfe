import SMPTestSupport
import XCTest

/// Every fixture in the manifest has a test class that reaches it directly, with a test method
/// for every group the manifest lists for it; the fixtures folder passed its checksums.
final class ManifestCoverageTests: XCTestCase {
    /// The direct (not bridged, not virtual) suites, one per fixture.
    static let directSuites: [ConformanceSuite] = [
        MPS2AN385SerialRecoveryConformanceTests.suite, MPS2AN385SerialRecoveryRawConformanceTests.suite,
        QEMUCortexM0SerialConformanceTests.suite, NativeSimSerialConformanceTests.suite, NativeSimSerialBigRXConformanceTests.suite,
        NativeSimSerialBuf96ConformanceTests.suite, NativeSimSerialBuf256ConformanceTests.suite,
        NativeSimSerialBuf1024ConformanceTests.suite, NativeSimSerialBuf2048ConformanceTests.suite,
        NativeSimSerialFSConformanceTests.suite, NativeSimSerialLine512ConformanceTests.suite,
        NativeSimSerialNoparamsConformanceTests.suite, NativeSimSerialRawConformanceTests.suite, NativeSimShellConformanceTests.suite,
        NativeSimUDPConformanceTests.suite, NativeSimUDP6ConformanceTests.suite,
    ]

    func testEveryFixtureHasASuiteCoveringItsGroups() throws {
        let folder = try ZephyrFixtureFolder.require()
        XCTAssertFalse(folder.fixtures.isEmpty, "the manifest lists no fixture")
        for fixture in folder.fixtures {
            let suites = Self.directSuites.filter { $0.target == fixture.target && $0.config == fixture.config && $0.route == .direct && !$0.virtual }
            XCTAssertEqual(suites.count, 1, "\(fixture.name) needs exactly one direct suite")
            let covered = Set(suites.flatMap(\.areas).map(\.group))
            XCTAssertEqual(
                covered, Set(fixture.firmwareGroups),
                "\(fixture.name): the suite's areas cover \(covered.sorted()), the firmware has \(fixture.firmwareGroups.sorted())")
        }
    }

    func testEveryScenarioAreaHasAScenario() {
        for area in ConformanceArea.allCases {
            XCTAssertFalse(ConformanceScenarios.all.filter { $0.area == area }.isEmpty, "no scenario for \(area)")
        }
    }
}
