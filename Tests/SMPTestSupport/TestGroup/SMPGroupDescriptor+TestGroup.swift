import CBOR
import SMP

// A test-only management group, the library side in one file: its ID, error enum, command and
// descriptor. Register it with `SMPGroupCatalog.register(.testGroup)` before use.

extension SMPGroup {
    /// The test-only group (250), an application-defined group.
    public static let testGroup = SMPGroup(rawValue: 250)
}

/// The test group's error codes (`TEST_MGMT_ERR_*`).
public enum TestGroupError: Int64, SMPGroupErrorCode {
    /// `TEST_MGMT_ERR_EMPTY` (1).
    case empty = 1
    /// `TEST_MGMT_ERR_TOO_LONG` (2).
    case tooLong = 2

    public static let group = SMPGroup.testGroup
    public static let prefix = "TEST_MGMT_ERR_"

    public var info: SMPGroupErrorInfo {
        switch self {
        case .empty: .init("EMPTY", "there is nothing to echo; give some text", .invalidValue)
        case .tooLong: .init("TOO_LONG", "the text is longer than the device echoes; send less", .noMemory)
        }
    }
}

/// The test group's echo (command 0, read): answers `{"r": text}`.
public struct TestGroupEcho: SMPCommand {
    /// The text to echo.
    public var text: String

    /// Creates the request.
    public init(_ text: String) { self.text = text }

    public var request: SMPRequest {
        SMPRequest(group: .testGroup, command: 0, operation: .read, payload: ["d": .text(text)], name: "testgroup echo")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> String {
        try payload.text("r")
    }
}

extension SMPGroupDescriptor {
    /// The test group (250).
    public static let testGroup = SMPGroupDescriptor(
        group: .testGroup, name: "testgroup", title: "test", firmwareName: "test mgmt",
        enablingOption: "CONFIG_TEST_MGMT (a test-only group)",
        commands: [.init(0, "echo", [TestGroupEcho.self])],
        errors: TestGroupError.self,
        probe: TestGroupEcho("probe").request)
}
