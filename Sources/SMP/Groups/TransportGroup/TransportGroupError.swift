/// Transport management group (11 by default; Zephyr 4.5, experimental),
/// Zephyr `enum transport_mgmt_ret_code_t`; v1 translation from `transport_mgmt.c`.
///
/// The names are the header's (`TRANSPORT_MGMT_ERR_TRANSPORT_MISSING_REQUIRED_FUNCTIONS`, …).
///
/// Each case names one `err.rc` value; ``SMPGroupErrorCode/name`` gives Zephyr's enumerator name.
public enum TransportGroupError: Int64, SMPGroupErrorCode {
    /// `TRANSPORT_MGMT_ERR_OK` (0).
    case ok = 0
    /// `TRANSPORT_MGMT_ERR_UNKNOWN` (1).
    case unknown = 1
    /// `TRANSPORT_MGMT_ERR_TRANSPORT_MISSING_REQUIRED_FUNCTIONS` (2).
    case transportMissingRequiredFunctions = 2
    /// `TRANSPORT_MGMT_ERR_TRANSPORT_MISSING_INFO_FUNCTIONS` (3).
    case transportMissingInfoFunctions = 3
    /// `TRANSPORT_MGMT_ERR_INVALID_TRANSPORT` (4).
    case invalidTransport = 4
    /// `TRANSPORT_MGMT_ERR_INVALID_MODE` (5).
    case invalidMode = 5
    /// `TRANSPORT_MGMT_ERR_ALL_CONTEXTS_USED` (6).
    case allContextsUsed = 6
    /// `TRANSPORT_MGMT_ERR_BOTH_TRANSPORT_AND_ALL_PARAMETERS` (7).
    case bothTransportAndAllParameters = 7
    /// `TRANSPORT_MGMT_ERR_NOT_BRIDGED` (8).
    case notBridged = 8
    /// `TRANSPORT_MGMT_ERR_SAME_BRIDGE_DEVICE_DISALLOWED` (9).
    case sameBridgeDeviceDisallowed = 9
    /// `TRANSPORT_MGMT_ERR_TRANSPORT_INGOING_NOT_SUPPORTED` (10).
    case transportIngoingNotSupported = 10
    /// `TRANSPORT_MGMT_ERR_TRANSPORT_OUTGOING_NOT_SUPPORTED` (11).
    case transportOutgoingNotSupported = 11
    /// `TRANSPORT_MGMT_ERR_TRANSPORT_INCOMING_TRANSPORT_ALREADY_BRIDGED` (12).
    case transportIncomingTransportAlreadyBridged = 12
    /// `TRANSPORT_MGMT_ERR_TRANSPORT_OUTGOING_TRANSPORT_ALREADY_BRIDGED` (13).
    case transportOutgoingTransportAlreadyBridged = 13
    /// `TRANSPORT_MGMT_ERR_CONNECT_MISSING_PARAMETER` (14).
    case connectMissingParameter = 14
    /// `TRANSPORT_MGMT_ERR_CONNECT_INVALID_PARAMETER` (15).
    case connectInvalidParameter = 15
    /// `TRANSPORT_MGMT_ERR_CONNECT_UNSUPPORTED_PARAMETER` (16).
    case connectUnsupportedParameter = 16
    /// `TRANSPORT_MGMT_ERR_CONNECT_FAILED` (17).
    case connectFailed = 17

    public static let group = SMPGroup.transport
    public static let prefix = "TRANSPORT_MGMT_ERR_"

    public var info: SMPGroupErrorInfo {
        switch self {
        case .ok: .init("OK", "success: the transport group reported no error", .ok)
        case .unknown:
            .init(
                "UNKNOWN",
                "the transport group reported an unspecified error; check the device's log output",
                .unknown)
        case .transportMissingRequiredFunctions:
            .init(
                "TRANSPORT_MISSING_REQUIRED_FUNCTIONS",
                "this transport lacks the connect/disconnect functions needed for bridging",
                .noEntry)
        case .transportMissingInfoFunctions:
            .init(
                "TRANSPORT_MISSING_INFO_FUNCTIONS",
                "this transport cannot describe its bridge modes or configuration",
                .noEntry)
        case .invalidTransport:
            .init(
                "INVALID_TRANSPORT",
                "the transport ID is missing, invalid or not available on the device; list its transports first",
                .invalidValue)
        case .invalidMode:
            .init(
                "INVALID_MODE",
                "the bridge mode is missing, invalid or not supported by the transport; list the transport's modes",
                .invalidValue)
        case .allContextsUsed:
            .init(
                "ALL_CONTEXTS_USED",
                "every bridge context is in use (MCUMGR_GRP_TRANSPORT_MAX_BRIDGES); disconnect a bridge first",
                .badState)
        case .bothTransportAndAllParameters:
            .init(
                "BOTH_TRANSPORT_AND_ALL_PARAMETERS",
                "both `transport` and `all` were given; give only one of them",
                .invalidValue)
        case .notBridged:
            .init("NOT_BRIDGED", "the transport is not bridged, so there is nothing to disconnect", .badState)
        case .sameBridgeDeviceDisallowed:
            .init(
                "SAME_BRIDGE_DEVICE_DISALLOWED",
                "this transport cannot be bridged to itself (same incoming and outgoing device)",
                .invalidValue)
        case .transportIngoingNotSupported:
            .init("TRANSPORT_INGOING_NOT_SUPPORTED", "this transport cannot be the incoming side of a bridge", .unknown)
        case .transportOutgoingNotSupported:
            .init(
                "TRANSPORT_OUTGOING_NOT_SUPPORTED",
                "this transport cannot be the outgoing side of a bridge",
                .unknown)
        case .transportIncomingTransportAlreadyBridged:
            .init(
                "TRANSPORT_INCOMING_TRANSPORT_ALREADY_BRIDGED",
                "the incoming transport is already bridged to another transport; disconnect that bridge first",
                .unknown)
        case .transportOutgoingTransportAlreadyBridged:
            .init(
                "TRANSPORT_OUTGOING_TRANSPORT_ALREADY_BRIDGED",
                "the outgoing transport is already bridged to another transport; disconnect that bridge first",
                .unknown)
        case .connectMissingParameter:
            .init(
                "CONNECT_MISSING_PARAMETER",
                "the connection parameters lack a required item; ask the device for the mode's configuration "
                    + "details",
                .unknown)
        case .connectInvalidParameter:
            .init("CONNECT_INVALID_PARAMETER", "a connection parameter has an invalid value", .unknown)
        case .connectUnsupportedParameter:
            .init(
                "CONNECT_UNSUPPORTED_PARAMETER",
                "a connection parameter is valid but not supported by this device or its configuration",
                .unknown)
        case .connectFailed:
            .init("CONNECT_FAILED", "the bridge connection attempt failed (the other side did not answer?)", .unknown)
        }
    }
}

extension SMPGroupError {
    /// The error a device reports for `code`, e.g. `.transport(.notBridged)`; also a pattern that matches it
    /// (`case .groupError(.transport(.notBridged))`).
    public static func transport(_ code: TransportGroupError) -> SMPGroupError { SMPGroupError(code) }
}
