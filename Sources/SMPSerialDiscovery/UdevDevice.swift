import CUdev

/// One libudev device (`struct udev_device`): sysfs attributes, udev properties and parents.
final class UdevDevice {
    private let pointer: OpaquePointer
    /// Keeps the context alive as long as any of its devices.
    private let context: UdevContext

    /// Takes over a reference the caller owns (from `udev_device_new_*` or `udev_monitor_receive_device`).
    init(owning pointer: OpaquePointer, context: UdevContext) {
        self.pointer = pointer
        self.context = context
    }

    /// Takes a reference of its own on a device another object owns (a parent).
    private static func borrowing(_ pointer: OpaquePointer?, context: UdevContext) -> UdevDevice? {
        guard let pointer, let referenced = udev_device_ref(pointer) else { return nil }
        return UdevDevice(owning: referenced, context: context)
    }

    deinit { udev_device_unref(pointer) }

    /// The sysfs path, `/sys/devices/…/tty/ttyACM0`.
    var syspath: String? { Self.string(udev_device_get_syspath(pointer)) }
    /// The kernel name, `ttyACM0`.
    var sysname: String? { Self.string(udev_device_get_sysname(pointer)) }
    /// The device node, `/dev/ttyACM0`.
    var devnode: String? { Self.string(udev_device_get_devnode(pointer)) }
    /// The subsystem: `tty`, `usb`, `pnp`, `platform`, `serial-base`…
    var subsystem: String? { Self.string(udev_device_get_subsystem(pointer)) }
    /// The device type within the subsystem: `usb_device`, `usb_interface`…
    var devtype: String? { Self.string(udev_device_get_devtype(pointer)) }
    /// The bound driver: `cdc_acm`, `ftdi_sio`, `serial`…
    var driver: String? { Self.string(udev_device_get_driver(pointer)) }
    /// The uevent action of a device received from a monitor: `add`, `remove`, `change`…
    var action: String? { Self.string(udev_device_get_action(pointer)) }

    /// A udev property (`ID_VENDOR_ID`, `DEVLINKS`…), or nil when absent or empty.
    func property(_ name: String) -> String? {
        Self.string(udev_device_get_property_value(pointer, name))
    }

    /// Every udev property with a value, by name (empty without udevd).
    var properties: [String: String] {
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(pointer)
        while let current = entry {
            if let name = Self.string(udev_list_entry_get_name(current)), let value = Self.string(udev_list_entry_get_value(current)) {
                properties[name] = value
            }
            entry = udev_list_entry_get_next(current)
        }
        return properties
    }

    /// A sysfs attribute (`idVendor`, `serial`…) with surrounding white space removed, or nil
    /// when absent, unreadable or empty.
    func attribute(_ name: String) -> String? {
        Self.string(udev_device_get_sysattr_value(pointer, name)).flatMap { value in
            let trimmed = value.trimmingWhiteSpace
            return trimmed.isEmpty ? nil : trimmed
        }
    }

    /// The next device up the sysfs tree, if any.
    var parent: UdevDevice? {
        Self.borrowing(udev_device_get_parent(pointer), context: context)
    }

    /// The nearest ancestor of a subsystem (and device type).
    func parent(subsystem: String, devtype: String? = nil) -> UdevDevice? {
        Self.borrowing(udev_device_get_parent_with_subsystem_devtype(pointer, subsystem, devtype), context: context)
    }

    private static func string(_ text: UnsafePointer<CChar>?) -> String? {
        guard let text else { return nil }
        let value = String(cString: text)
        return value.isEmpty ? nil : value
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line breaks.
    var trimmingWhiteSpace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
