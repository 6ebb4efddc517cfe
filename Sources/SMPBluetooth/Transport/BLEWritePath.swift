/// How requests reach the SMP characteristic.
public enum BLEWritePath: String, Sendable {
    /// A socket from `AcquireWrite`: one write command per datagram.
    case acquired = "AcquireWrite"
    /// `WriteValue` with type "command" for each fragment.
    case writeValue = "WriteValue"
}

/// How responses arrive from the SMP characteristic.
public enum BLENotifyPath: String, Sendable {
    /// A socket from `AcquireNotify`: one notification per datagram.
    case acquired = "AcquireNotify"
    /// `StartNotify`, each notification a PropertiesChanged(Value) signal.
    case propertiesChanged = "StartNotify"
}
