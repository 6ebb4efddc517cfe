import CUdev

/// A libudev monitor on the "udev" netlink group: the events udevd sends once it has processed a
/// device (node and links created). Without udevd it receives nothing, so callers also poll.
final class UdevMonitor {
    private let pointer: OpaquePointer
    private let context: UdevContext

    /// Creates and enables a monitor for one subsystem; nil when netlink is not available
    /// (e.g. a container without the permission).
    init?(context: UdevContext, subsystem: String) {
        guard let pointer = udev_monitor_new_from_netlink(context.pointer, "udev") else { return nil }
        guard udev_monitor_filter_add_match_subsystem_devtype(pointer, subsystem, nil) >= 0,
              udev_monitor_enable_receiving(pointer) >= 0,
              udev_monitor_get_fd(pointer) >= 0
        else {
            udev_monitor_unref(pointer)
            return nil
        }
        self.pointer = pointer
        self.context = context
    }

    deinit { udev_monitor_unref(pointer) }

    /// The socket to poll for readability.
    var fileDescriptor: Int32 { udev_monitor_get_fd(pointer) }

    /// The next queued event's device, or nil when none is queued (the socket is non-blocking).
    func receive() -> UdevDevice? {
        udev_monitor_receive_device(pointer).map { UdevDevice(owning: $0, context: context) }
    }
}
