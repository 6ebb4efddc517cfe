extension SMPErrorTable {
    /// Transport management group (11 by default; Zephyr 4.5, experimental),
    /// Zephyr `enum transport_mgmt_ret_code_t`; v1 translation from `transport_mgmt.c`.
    ///
    /// The names are the header's (`TRANSPORT_MGMT_ERR_TRANSPORT_MISSING_REQUIRED_FUNCTIONS`, …);
    /// the protocol notes abbreviate some of them.
    static let transport = SMPErrorTable(group: 11, prefix: "TRANSPORT_MGMT_ERR_", title: "transport", entries: [
        .init(0, "OK", "success: the transport group reported no error", .ok),
        .init(1, "UNKNOWN", "the transport group reported an unspecified error; check the device's log output",
              .unknown),
        .init(2, "TRANSPORT_MISSING_REQUIRED_FUNCTIONS",
              "this transport lacks the connect/disconnect functions needed for bridging", .noEntry),
        .init(3, "TRANSPORT_MISSING_INFO_FUNCTIONS",
              "this transport cannot describe its bridge modes or configuration", .noEntry),
        .init(4, "INVALID_TRANSPORT",
              "the transport ID is missing, invalid or not available on the device; list its transports first",
              .invalidValue),
        .init(5, "INVALID_MODE",
              "the bridge mode is missing, invalid or not supported by the transport; list the transport's modes",
              .invalidValue),
        .init(6, "ALL_CONTEXTS_USED",
              "every bridge context is in use (MCUMGR_GRP_TRANSPORT_MAX_BRIDGES); disconnect a bridge first",
              .badState),
        .init(7, "BOTH_TRANSPORT_AND_ALL_PARAMETERS",
              "both `transport` and `all` were given; give only one of them", .invalidValue),
        .init(8, "NOT_BRIDGED", "the transport is not bridged, so there is nothing to disconnect", .badState),
        .init(9, "SAME_BRIDGE_DEVICE_DISALLOWED",
              "this transport cannot be bridged to itself (same incoming and outgoing device)", .invalidValue),
        .init(10, "TRANSPORT_INGOING_NOT_SUPPORTED",
              "this transport cannot be the incoming side of a bridge", .unknown),
        .init(11, "TRANSPORT_OUTGOING_NOT_SUPPORTED",
              "this transport cannot be the outgoing side of a bridge", .unknown),
        .init(12, "TRANSPORT_INCOMING_TRANSPORT_ALREADY_BRIDGED",
              "the incoming transport is already bridged to another transport; disconnect that bridge first",
              .unknown),
        .init(13, "TRANSPORT_OUTGOING_TRANSPORT_ALREADY_BRIDGED",
              "the outgoing transport is already bridged to another transport; disconnect that bridge first",
              .unknown),
        .init(14, "CONNECT_MISSING_PARAMETER",
              "the connection parameters lack a required item; ask the device for the mode's configuration "
              + "details", .unknown),
        .init(15, "CONNECT_INVALID_PARAMETER", "a connection parameter has an invalid value", .unknown),
        .init(16, "CONNECT_UNSUPPORTED_PARAMETER",
              "a connection parameter is valid but not supported by this device or its configuration", .unknown),
        .init(17, "CONNECT_FAILED",
              "the bridge connection attempt failed (the other side did not answer?)", .unknown),
    ])
}
