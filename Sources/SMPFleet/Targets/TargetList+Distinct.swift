import SMPKit

extension TargetList {
    /// Rejects two targets that are the same device: the same USB serial number (any case), the
    /// same address, or the same connection (options aside).
    ///
    /// - Parameters:
    ///   - targets: the targets, in order.
    ///   - origins: where each target came from (`targets.txt:3`), for the message; when given, a
    ///     duplicate is bad data (a targets file), else a usage error (a selector).
    /// - Throws: ``TargetSelectionError`` naming both targets and what they share.
    public static func checkDistinct(_ targets: [DeviceTarget], origins: [String]? = nil) throws(TargetSelectionError) {
        var seen: [String: Int] = [:]
        for (index, target) in targets.enumerated() {
            let connection = ConnectionString(target: target.connection.target).description
            var keys: [(key: String, what: String)] = [("connection " + connection, "the connection \(connection)")]
            if let serial = target.identity.serialNumber { keys.append(("serial " + serial.lowercased(), "the serial number \(serial)")) }
            if let address = target.identity.address { keys.append(("address " + address.lowercased(), "the address \(address)")) }
            for (key, what) in keys {
                if let first = seen[key] {
                    let describe = { (position: Int) in
                        "\"\(targets[position].name)\"" + (origins.flatMap { $0.indices.contains(position) ? " (\($0[position]))" : nil } ?? "")
                    }
                    throw TargetSelectionError(
                        origins == nil ? .usage : .data, "\(describe(first)) and \(describe(index)) are the same device: both have \(what)",
                        hint: "name each device once (a selector may already match a device named on another line)")
                }
            }
            for (key, _) in keys { seen[key] = index }
        }
    }
}
