import Foundation
import SMPTestSupport

/// What a group of scenarios exercises; each test class runs one area per test method.
enum ConformanceArea: String, Sendable, CaseIterable {
    case os, reset, limits, statistics, settings, fileSystem, shell, enumeration, zephyrBasic, image, recovery

    /// The manifest group the area needs (`os`, `img`, `stat`, …).
    var group: String {
        switch self {
        case .os, .reset, .limits: "os"
        case .statistics: "stat"
        case .settings: "settings"
        case .fileSystem: "fs"
        case .shell: "shell"
        case .enumeration: "enum"
        case .zephyrBasic: "zbasic"
        case .image, .recovery: "img"
        }
    }
}

/// What a step sees: the device's description, a scratch folder for files, earlier runs.
struct ScenarioContext: Sendable {
    /// The fixture the device is (or imitates).
    let fixture: ZephyrFixture
    /// Whether the device is our virtual device.
    let isVirtual: Bool
    /// The fixtures folder (firmware files to build images from).
    let fixtures: ZephyrFixtureFolder
    /// A fresh folder for this scenario's files.
    let scratch: URL
    /// The runs of the scenario's earlier steps, in order.
    var previous: [SMPCtlInvocation] = []

    /// A local file of `size` deterministic pseudo-random bytes (made once).
    func file(_ name: String, size: Int) throws -> URL {
        let url = scratch.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: url.path) {
            var generator = SplitMix64(seed: UInt64(size))
            try Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: url)
        }
        return url
    }

    /// The last JSON object of the previous step's standard output.
    var previousJSON: [String: Any]? { previous.last?.lastJSONObject }
}

/// Returns the problems found in a run (empty: the step passed).
typealias StepCheck = @Sendable (SMPCtlInvocation, ScenarioContext) -> [String]

/// One smpctl run: its arguments (after `-c CONNECTION`) and what it must show.
struct ScenarioStep: Sendable {
    /// The arguments; may build files in the scenario's scratch folder.
    var arguments: @Sendable (ScenarioContext) throws -> [String]
    /// What the run must show.
    var check: StepCheck
    /// The longest the run may take before it is killed (and fails).
    var timeout: TimeInterval = 25
    /// Whether the device resets after answering (the runner brings it back before the next step).
    var resetsDevice = false

    init(
        timeout: TimeInterval = 25, resetsDevice: Bool = false, _ arguments: @escaping @Sendable (ScenarioContext) throws -> [String],
        check: @escaping StepCheck
    ) {
        self.arguments = arguments
        self.check = check
        self.timeout = timeout
        self.resetsDevice = resetsDevice
    }

    /// A step with fixed arguments.
    init(timeout: TimeInterval = 25, resetsDevice: Bool = false, _ arguments: [String], check: @escaping StepCheck) {
        self.init(timeout: timeout, resetsDevice: resetsDevice, { _ in arguments }, check: check)
    }
}

/// One conformance scenario: data that runs the same against every fixture that offers its area
/// and against the virtual device configured like that fixture.
struct ConformanceScenario: Sendable {
    /// What it shows, e.g. "os echo of buf_size − 20 bytes".
    var name: String
    /// The area (and so the group) it exercises.
    var area: ConformanceArea
    /// Whether it applies to a fixture beyond offering the area's group.
    var applies: @Sendable (ZephyrFixture) -> Bool = { _ in true }
    /// Whether the virtual device can run it (false where only real firmware behaves so).
    var onVirtualDevice = true
    /// Whether it needs a device of its own, freshly started (a small file system holds one
    /// 8 KB file and nothing else: LittleFS on 4 × 4 KiB blocks).
    var freshDevice = false
    /// The smpctl runs, in order, on one device.
    var steps: [ScenarioStep]
}
