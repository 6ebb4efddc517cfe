#if canImport(Glibc)
import Glibc
#endif
import SMPKit
import SMPSerial

extension TargetList {
    /// Rejects two targets that are the same device: the same USB serial number (any case), the
    /// same address, the same connection (options aside), or two spellings of one place — host
    /// names and addresses that resolve to a common address (`localhost:14012` and
    /// `127.0.0.1:14012`), and device paths that lead to one device node (a link and its node).
    ///
    /// - Parameters:
    ///   - targets: the targets, in order.
    ///   - origins: where each target came from (`targets.txt:3`), for the message; when given, a
    ///     duplicate is bad data (a targets file), else a usage error (a selector).
    /// - Throws: ``TargetSelectionError`` naming both targets and what they share.
    public static func checkDistinct(_ targets: [DeviceTarget], origins: [String]? = nil) throws(TargetSelectionError) {
        var seen: [String: Int] = [:]
        var hosts: [String: [String]] = [:]
        let resolve = { (host: String) -> [String] in
            if let known = hosts[host] { return known }
            let found = addresses(of: host)
            hosts[host] = found
            return found
        }
        for (index, target) in targets.enumerated() {
            let connection = ConnectionString(target: target.connection.target).description
            var keys: [(key: String, what: String)] = [("connection " + connection, "the connection \(connection)")]
            if let serial = target.identity.serialNumber { keys.append(("serial " + serial.lowercased(), "the serial number \(serial)")) }
            if let address = target.identity.address { keys.append(("address " + address.lowercased(), "the address \(address)")) }
            keys += placeKeys(target.connection.target, addresses: resolve)
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

    /// Where a connection leads, beyond its spelling: each address its host resolves to (with the
    /// port), or the device node its path resolves to.
    private static func placeKeys(_ target: ConnectionString.Target, addresses: (String) -> [String]) -> [(key: String, what: String)] {
        switch target {
        case .udp(let host, let port):
            return addresses(host).map { ("udp \($0) \(port)", "the address \(bracketed($0)):\(port)") }
        case .serialServer(let server):
            return addresses(server.host).map { ("tcp \($0) \(server.port)", "the serial server \(bracketed($0)):\(server.port)") }
        case .serial(.path(let path)):
            let node = DeviceLinks.followingLinks(path)
            var keys = [("connection serial:\(node)", "the device \(node)")]
            if let number = DeviceLinks.characterDevice(path) { keys.append(("device number \(number)", "the device \(node)")) }
            return keys
        case .labgridPlace(let place):
            return [("labgrid \(place.coordinator ?? "") \(place.name)", "the labgrid place \(place.name)")]
        case .serial, .ble:
            return []
        }
    }

    /// The numeric addresses `host` resolves to (the host itself when it does not resolve).
    private static func addresses(of host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [host.lowercased()] }
        defer { freeaddrinfo(list) }
        var found: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(current.pointee.ai_addr, current.pointee.ai_addrlen, &name, socklen_t(name.count), nil, 0, NI_NUMERICHOST) == 0 {
                let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !found.contains(text) { found.append(text) }
            }
            entry = current.pointee.ai_next
        }
        return found.isEmpty ? [host.lowercased()] : found
    }

    private static func bracketed(_ address: String) -> String {
        address.contains(":") ? "[\(address)]" : address
    }
}
