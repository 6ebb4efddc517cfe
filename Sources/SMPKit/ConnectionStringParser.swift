#if canImport(Glibc)
import Glibc
#endif
import SMPSerial

/// Parses the connection-string grammar documented on ``ConnectionString``.
struct ConnectionStringParser {
    let input: String

    init(_ input: String) { self.input = input }

    private func fail(_ part: some StringProtocol, _ problem: String, hint: String = ConnectionStringError.examples) -> ConnectionStringError {
        ConnectionStringError(input: input, part: String(part), problem: problem, hint: hint)
    }

    func parse() throws(ConnectionStringError) -> ConnectionString {
        let text = input.trimmingWhitespace
        guard !text.isEmpty else { throw fail("", "it is empty") }
        guard let colon = text.firstIndex(of: ":") else {
            throw fail(text, "no transport given; start with udp:, serial: or ble:")
        }
        let scheme = text[..<colon].lowercased()
        var rest = text[text.index(after: colon)...]
        if rest.hasPrefix("//") { rest = rest.dropFirst(2) }
        var query: Substring = ""
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        guard !rest.isEmpty else { throw fail(text, "no device given after \"\(scheme):\"") }
        let target: ConnectionString.Target
        switch scheme {
        case "udp": target = try udp(rest)
        case "serial": target = try serial(rest)
        case "ble": target = try ble(rest)
        default: throw fail(scheme, "unknown transport; expected udp, serial or ble")
        }
        var connection = ConnectionString(target: target)
        connection.options = try options(query, transport: scheme)
        return connection
    }

    private func udp(_ text: Substring) throws(ConnectionStringError) -> ConnectionString.Target {
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw fail(text, "an IPv6 address opened with [ has no closing ]") }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail(after, "expected :PORT after the ] of the IPv6 address") }
                portText = after.dropFirst()
            }
            guard !host.isEmpty else { throw fail(text, "no host given") }
            guard host.contains(":") else { throw fail(host, "brackets are only for IPv6 addresses") }
        } else if text.filter({ $0 == ":" }).count > 1 {
            host = text  // an IPv6 address without brackets, and so without a port
        } else if let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = text
        }
        host = Substring(host.replacingPercentEncodedZone)
        guard !host.isEmpty else { throw fail(text, "no host given") }
        if host.contains(":") {
            guard Self.isIPv6Address(host) else {
                throw fail(host, "not a valid IPv6 address (write IPv6 with a port as [ADDRESS]:PORT)")
            }
        } else if let bad = host.first(where: { !($0.isLetter || $0.isNumber || "-._".contains($0)) }) {
            throw fail(host, "the host contains \"\(bad)\", which no address or host name has")
        } else if host.utf8.count > 253 || host.split(separator: ".").contains(where: { $0.utf8.count > 63 }) {
            throw fail(host, "too long for a host name (at most 253 characters, 63 between dots)")
        }
        var port = 1337
        if let portText {
            guard portText.isASCIIDigits, let value = Int(portText), (1...65_535).contains(value) else {
                throw fail(portText, "the port must be a number from 1 to 65535")
            }
            port = value
        }
        return .udp(host: String(host), port: port)
    }

    /// Whether `text` is an IPv6 address, optionally with a `%zone` (checked with inet_pton).
    private static func isIPv6Address(_ text: Substring) -> Bool {
        let parts = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2 && (parts[1].isEmpty || parts[1].contains(where: { $0 == "/" || $0.isWhitespace })) { return false }
        var address = in6_addr()
        return inet_pton(AF_INET6, String(parts[0]), &address) == 1
    }

    private func serial(_ text: Substring) throws(ConnectionStringError) -> ConnectionString.Target {
        if text == "auto" { return .serial(.auto) }
        if text.hasPrefix("tcp://") {
            guard case .tcp(let host, let port) = SerialEndpoint(path: String(text)) else {
                throw fail(text, "expected tcp://HOST:PORT with a port from 1 to 65535, e.g. tcp://127.0.0.1:5000")
            }
            return .serial(.tcp(host: host, port: port))
        }
        if text.hasPrefix("usb=") {
            let fields = text.dropFirst(4).split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count >= 2, let vid = UInt16(fields[0], radix: 16), let pid = UInt16(fields[1], radix: 16),
                  fields[0].count == 4, fields[1].count == 4, fields[0].isASCIIHexDigits, fields[1].isASCIIHexDigits
            else {
                throw fail(text, "expected usb=VID:PID or usb=VID:PID:SERIAL with 4-digit hex IDs, e.g. usb=2fe3:0100")
            }
            let serialNumber = fields.count == 3 ? String(fields[2]) : nil
            if serialNumber?.isEmpty == true { throw fail(text, "the serial number after VID:PID is empty") }
            return .serial(.usb(vendorID: vid, productID: pid, serialNumber: serialNumber))
        }
        if text.hasPrefix("serial-number=") {
            let serialNumber = text.dropFirst("serial-number=".count)
            guard !serialNumber.isEmpty else { throw fail(text, "the serial number is empty") }
            return .serial(.serialNumber(String(serialNumber)))
        }
        guard text.hasPrefix("/") else {
            throw fail(text, "expected a device path such as /dev/ttyACM0, usb=VID:PID, serial-number=SERIAL, auto or tcp://HOST:PORT")
        }
        return .serial(.path(String(text)))
    }

    private func ble(_ text: Substring) throws(ConnectionStringError) -> ConnectionString.Target {
        if text.hasPrefix("name=") {
            let name = text.dropFirst(5)
            guard !name.isEmpty else { throw fail(text, "the device name is empty") }
            return .ble(.name(String(name)))
        }
        let octets = text.split(separator: ":", omittingEmptySubsequences: false)
        guard octets.count == 6, octets.allSatisfy({ $0.count == 2 && $0.isASCIIHexDigits }) else {
            throw fail(text, "expected a Bluetooth address AA:BB:CC:DD:EE:FF or name=NAME")
        }
        return .ble(.address(text.uppercased()))
    }

    private func options(_ query: Substring, transport: String) throws(ConnectionStringError) -> ConnectionOptions {
        var options = ConnectionOptions()
        var seen = Set<String>()
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = item.firstIndex(of: "=") else { throw fail(item, "an option must be NAME=VALUE") }
            let name = item[..<equals].lowercased()
            let value = String(item[item.index(after: equals)...])
            guard ConnectionOptions.names(for: transport).contains(name) else {
                throw fail(name, "unknown option for \(transport); \(transport) takes \(ConnectionOptions.names(for: transport).joined(separator: ", "))")
            }
            guard seen.insert(name).inserted else { throw fail(item, "the option is given twice") }
            do {
                try options.set(name, to: value, transport: transport)
            } catch {
                throw fail(item, error.problem, hint: error.hint)
            }
        }
        return options
    }
}

extension String {
    var trimmingWhitespace: Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return self[start..<max(start, end)]
    }
}

extension StringProtocol {
    /// Non-empty and only 0–9 (`Int("+80")` would accept a sign).
    var isASCIIDigits: Bool { !isEmpty && allSatisfy { $0.isASCII && $0.isNumber } }

    /// Non-empty and only 0–9, a–f, A–F (`UInt16("+fe3", radix: 16)` would accept a sign).
    var isASCIIHexDigits: Bool { !isEmpty && allSatisfy { $0.isASCII && $0.isHexDigit } }

    /// `fe80::1%25eth0` (the URI form of a zone) → `fe80::1%eth0`.
    var replacingPercentEncodedZone: String {
        guard let percent = firstIndex(of: "%") else { return String(self) }
        let zone = self[index(after: percent)...]
        return String(self[..<percent]) + "%" + (zone.hasPrefix("25") ? String(zone.dropFirst(2)) : String(zone))
    }
}
