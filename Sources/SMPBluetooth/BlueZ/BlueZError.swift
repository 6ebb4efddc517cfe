import SMP

/// Turns D-Bus and BlueZ failures into link errors that say what to do.
enum BlueZError {
    /// The error for a failed BlueZ call made while doing `action` for `endpoint`.
    static func transportError(_ error: DBusError, endpoint: String, action: String) -> SMPTransportError {
        switch error.name {
        case DBusError.serviceUnknown:
            return bluetoothdAbsent(endpoint)
        case DBusError.noReply:
            return SMPTransportError(.io, "\(endpoint): bluetoothd did not answer while \(action)", hint: "is the device in range and advertising?")
        case DBusError.disconnected:
            return SMPTransportError(.io, "\(endpoint): lost the connection to the system D-Bus while \(action)")
        case "org.freedesktop.DBus.Error.AccessDenied":
            return SMPTransportError(
                .permissionDenied, "\(endpoint): the system D-Bus denied access to bluetoothd while \(action)",
                hint: "run as a user in the bluetooth group, or as root")
        case DBusError.unknownObject, "org.bluez.Error.DoesNotExist":
            return SMPTransportError(.notFound, "\(endpoint): the device went away while \(action)")
        case "org.bluez.Error.NotAuthorized", "org.bluez.Error.AuthenticationFailed", "org.bluez.Error.AuthenticationRejected":
            return pairingNeeded(endpoint, error, action: action)
        case "org.bluez.Error.NotPermitted" where !error.message.contains("acquired"):
            return pairingNeeded(endpoint, error, action: action)
        default:
            return SMPTransportError(.io, "\(endpoint): \(action) failed: \(error)")
        }
    }

    static func bluetoothdAbsent(_ endpoint: String) -> SMPTransportError {
        SMPTransportError(
            .unavailable, "\(endpoint): the Bluetooth LE transport is not available: bluetoothd is not running on the system bus",
            hint: "start it (systemctl start bluetooth) and check that a Bluetooth controller is present")
    }

    /// A device that answered "Not paired" (ATT insufficient authentication or encryption) or
    /// refused an unauthenticated link.
    static func pairingNeeded(_ endpoint: String, _ error: DBusError, action: String) -> SMPTransportError {
        SMPTransportError(
            .permissionDenied, "\(endpoint): the device requires an encrypted, paired link (\(action): \(error))",
            hint: pairingAdvice(endpoint))
    }

    /// The advice for a timeout on an unpaired link.
    static func unpairedSilence(_ endpoint: String) -> String {
        "the link is not paired: a device that requires an encrypted link (CONFIG_MCUMGR_TRANSPORT_BT_PERM_RW_ENCRYPT or _RW_AUTHEN) "
            + "drops what an unpaired client writes without answering; " + pairingAdvice(endpoint)
    }

    /// How to pair, as connection options.
    private static func pairingAdvice(_ endpoint: String) -> String {
        "pair it: '\(endpoint)?pair=1', with passkey=NNNNNN when it displays a passkey"
    }
}
