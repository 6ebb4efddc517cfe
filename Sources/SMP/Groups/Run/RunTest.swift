import CBOR

/// Start a test suite on the device (run command 0, Mynewt `runtest`).
public struct RunTest: SMPCommand {
    /// The suite to run, or `"all"`; nil lets the device choose (all).
    public var testName: String?
    /// A token the device tags its results with.
    public var token: String?

    /// Creates the request.
    public init(testName: String? = nil, token: String? = nil) {
        self.testName = testName
        self.token = token
    }

    public var request: SMPRequest {
        var payload = CBORMap()
        if let testName { payload["testname"] = .text(testName) }
        if let token { payload["token"] = .text(token) }
        return SMPRequest(group: .run, command: RunCommandID.test, operation: .write, payload: payload, name: "run test")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
