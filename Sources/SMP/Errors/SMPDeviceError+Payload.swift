import CBOR

extension SMPDeviceError {
    /// Reads the error in a response payload, or returns nil when the response is a success (docs/protocol/errors.md §1.7).
    ///
    /// - An `err` map `{group, rc}` with `rc != 0` wins (a group error); `err.rc == 0` is no error.
    /// - Otherwise an `rc != 0` is an SMP-level error, with `rsn` as its reason.
    /// - Otherwise (no `err`, and `rc` absent or 0) the response is a success: nil.
    ///
    /// Integers may be negative. Error fields of the wrong form (an `rc` that is not an integer, an
    /// `err` that is not a map, an `err` without an integer `rc` or a valid `group`) are never taken
    /// as success: they give ``SMPReturnCode/unknown`` with a reason describing the malformed field.
    public init?(payload: CBORMap, requestGroup: UInt16) {
        guard let error = Self.read(payload, requestGroup: requestGroup) else { return nil }
        self = error
    }

    private static func read(_ payload: CBORMap, requestGroup: UInt16) -> SMPDeviceError? {
        if let err = payload["err"] {
            switch readGroupError(err, requestGroup: requestGroup) {
            case .success(let error?): return .groupError(error)
            case .success(nil): break
            case .failure(let malformed): return malformedResponse(malformed.detail, group: requestGroup)
            }
        }
        guard let rc = payload["rc"] else { return nil }
        guard let value = rc.int64Value else {
            return malformedResponse("\"rc\" should be an integer but is \(describe(rc))", group: requestGroup)
        }
        guard value != 0 else { return nil }
        return .returnCode(SMPReturnCode(rawValue: value), group: requestGroup, reason: reason(in: payload))
    }

    /// The group error in an `err` value; nil when its `rc` is 0.
    private static func readGroupError(
        _ err: CBOR, requestGroup: UInt16
    ) -> Result<SMPGroupError?, MalformedField> {
        guard let map = err.mapValue else {
            return .failure(MalformedField("\"err\" should be a map {group, rc} but is \(describe(err))"))
        }
        guard let rcValue = map["rc"] else { return .failure(MalformedField("\"err\" has no \"rc\"")) }
        guard let code = rcValue.int64Value else {
            return .failure(MalformedField("\"err.rc\" should be an integer but is \(describe(rcValue))"))
        }
        guard code != 0 else { return .success(nil) }
        guard let groupValue = map["group"] else {
            return .failure(MalformedField("\"err\" reports error \(code) without a \"group\""))
        }
        guard let raw = groupValue.int64Value, let group = UInt16(exactly: raw) else {
            return .failure(MalformedField(
                "\"err\" reports error \(code) but its \"group\" is \(describe(groupValue)), not a group ID"))
        }
        return .success(SMPGroupError(group: group, code: code, requestGroup: requestGroup))
    }

    private static func malformedResponse(_ detail: String, group: UInt16) -> SMPDeviceError {
        .returnCode(.unknown, group: group, reason: "\(malformedPrefix)\(detail); treated as a failure")
    }

    /// The `rsn` text, if any (a non-text `rsn` is shown in diagnostic notation).
    private static func reason(in payload: CBORMap) -> String? {
        guard let rsn = payload["rsn"] else { return nil }
        return rsn.stringValue ?? rsn.diagnosticDescription
    }

    private static func describe(_ value: CBOR) -> String {
        "\(value.typeName) \(value.diagnosticDescription)"
    }
}

/// Why an error field of a response could not be read.
private struct MalformedField: Error {
    let detail: String
    init(_ detail: String) { self.detail = detail }
}
