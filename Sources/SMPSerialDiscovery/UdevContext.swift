import CUdev

/// A libudev context (`struct udev`) and device enumeration.
///
/// libudev objects are not thread-safe: a context and everything made from it stay on the thread
/// (or task) that created them. Every object is released when its wrapper goes away.
final class UdevContext {
    let pointer: OpaquePointer

    /// Creates a context; fails only when libudev cannot allocate one.
    init() throws(SerialPortDiscoveryError) {
        guard let pointer = udev_new() else {
            throw .udevUnavailable("libudev could not create a context (udev_new failed)")
        }
        self.pointer = pointer
    }

    deinit { udev_unref(pointer) }

    /// Every device of a subsystem (e.g. "tty") that sysfs lists now, in sysfs order.
    func devices(inSubsystem subsystem: String) throws(SerialPortDiscoveryError) -> [UdevDevice] {
        guard let enumerator = udev_enumerate_new(pointer) else {
            throw .udevUnavailable("libudev could not create an enumerator (udev_enumerate_new failed)")
        }
        defer { udev_enumerate_unref(enumerator) }
        guard udev_enumerate_add_match_subsystem(enumerator, subsystem) >= 0,
              udev_enumerate_scan_devices(enumerator) >= 0
        else {
            throw .udevUnavailable("libudev could not list the \(subsystem) devices in /sys")
        }
        var devices: [UdevDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerator)
        while let current = entry {
            if let syspath = udev_list_entry_get_name(current), let device = udev_device_new_from_syspath(pointer, syspath) {
                // A device removed since the scan is simply skipped.
                devices.append(UdevDevice(owning: device, context: self))
            }
            entry = udev_list_entry_get_next(current)
        }
        return devices
    }
}
