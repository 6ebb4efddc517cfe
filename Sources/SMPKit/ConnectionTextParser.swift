#if canImport(Glibc)
import Glibc
#endif
import SMPSerial
import SMPSerialDiscovery

/// The one parser of connection text (``DeviceSelection``): `-c`, profiles, targets-file lines and
/// selectors all pass through it. The scheme is read once; per transport, the body is a selector
/// form (``DeviceSelector``) or else the connection-string form (the grammar on ``ConnectionString``),
/// and the `?query` goes through ``ConnectionQuery`` either way.
struct ConnectionTextParser {
    /// The text.
    let input: String
    /// The text as errors and selectors show it: secrets hidden (``ConnectionSecrets``).
    let shown: String

    init(_ input: String) {
        self.input = input
        shown = ConnectionSecrets.redacted(input)
    }

    private func fail(_ part: some StringProtocol, _ problem: String, hint: String = ConnectionStringError.examples) -> ConnectionStringError {
        ConnectionStringError(input: input, part: String(part), problem: problem, hint: hint)
    }

    /// One device or many: a selector where the body has a selector form, else a connection string.
    func selection() throws(ConnectionTextError) -> DeviceSelection {
        let parts: (scheme: String, body: Substring)
        do {
            parts = try split()
        } catch {
            throw .connection(error)
        }
        do {
            if parts.scheme == "labgrid" { return .many(try labgrid(parts.body)) }
            if let transport = Transport(rawValue: parts.scheme), let selector = try selector(transport, parts.body) { return .many(selector) }
        } catch {
            throw .selector(error)
        }
        do {
            return .one(try connection(parts.scheme, parts.body))
        } catch {
            throw .connection(error)
        }
    }

    /// The text as a connection string of one device (no selector forms).
    func connection() throws(ConnectionStringError) -> ConnectionString {
        let (scheme, body) = try split()
        return try connection(scheme, body)
    }

    /// The scheme (lowercased) and the text after its colon.
    private func split() throws(ConnectionStringError) -> (scheme: String, body: Substring) {
        let text = input.trimmingWhitespace
        guard !text.isEmpty else { throw fail("", "it is empty") }
        guard let colon = text.firstIndex(of: ":") else {
            throw fail(text, "no transport given; start with udp:, serial: or ble:")
        }
        return (text[..<colon].lowercased(), text[text.index(after: colon)...])
    }

    // MARK: One device

    private func connection(_ scheme: String, _ body: Substring) throws(ConnectionStringError) -> ConnectionString {
        var rest = body
        if rest.hasPrefix("//") { rest = rest.dropFirst(2) }
        var query: Substring = ""
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        guard !rest.isEmpty else { throw fail(input.trimmingWhitespace, "no device given after \"\(scheme):\"") }
        let target: ConnectionString.Target
        guard let transport = Transport(rawValue: scheme) else { throw fail(scheme, "unknown transport; expected udp, serial or ble") }
        switch transport {
        case .udp: target = try udp(rest)
        case .serial: target = try serial(rest)
        case .ble: target = try ble(rest)
        }
        var connection = ConnectionString(target: target)
        do {
            connection.options = try ConnectionQuery(parsing: query, transport: transport, takesScan: false).options
        } catch {
            switch error {
            case .notNameValue(let item): throw fail(item, "an option must be NAME=VALUE")
            case .rejected(_, let part, let problem, let hint): throw fail(part, problem, hint: hint)
            case .twice(let item): throw fail(item, "the option is given twice")
            case .scan(let item): throw fail(item, "expected seconds greater than 0 and at most 3600")
            }
        }
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
        if let kind = SerialServerAddress.Kind.allCases.first(where: { text.hasPrefix($0.scheme) }) {
            guard case .server(let server) = SerialEndpoint(path: String(text)) else {
                throw fail(text, "expected \(kind.scheme)HOST:PORT with a port from 1 to 65535, e.g. \(kind.scheme)127.0.0.1:5000")
            }
            return .serialServer(server)
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
            throw fail(text, "expected a device path such as /dev/ttyACM0, usb=VID:PID, serial-number=SERIAL, auto, tcp://HOST:PORT or rfc2217://HOST:PORT")
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

    // MARK: Many devices

    /// The selector the body is, or nil when it has no selector form (then it is a connection string).
    private func selector(_ transport: Transport, _ body: Substring) throws(SelectorError) -> DeviceSelector? {
        switch transport {
        case .serial:
            let (pattern, query) = ConnectionQuery.split(body)
            guard let ports = try serialPorts(pattern) else { return nil }
            return DeviceSelector(text: shown, form: .serial(ports), options: try selectorQuery(query, .serial).options)
        case .udp:
            let pattern = body.firstIndex(of: "?").map { body[..<$0] } ?? body
            guard UDPEndpointList.isSelector(pattern) else { return nil }
            let options = try selectorQuery(body.dropFirst(pattern.count + 1), .udp).options
            return DeviceSelector(text: shown, form: .udp(try UDPEndpointList.endpoints(pattern, selector: shown)), options: options)
        case .ble:
            let (pattern, query) = ConnectionQuery.split(body)
            guard pattern.hasPrefix("name="), pattern.contains("*") else { return nil }
            let parsed = try selectorQuery(query, .ble)
            let name = GlobPattern(String(pattern.dropFirst("name=".count)), ignoringCase: false)
            return DeviceSelector(text: shown, form: .bleName(name, scanSeconds: parsed.scanSeconds), options: parsed.options)
        }
    }

    /// `labgrid:PATTERN[?coordinator=HOST[:PORT]&SERIAL OPTIONS]`: places of a labgrid coordinator.
    private func labgrid(_ body: Substring) throws(SelectorError) -> DeviceSelector {
        let (pattern, query) = ConnectionQuery.split(body, also: ["coordinator"])
        func mistake(_ problem: String) -> SelectorError {
            SelectorError(
                "invalid labgrid selector \"\(shown)\": \(problem)",
                hint: "write labgrid:PLACE or labgrid:PATTERN (* ? and [...] are wildcards), optionally ?coordinator=HOST:PORT "
                    + "and serial options, e.g. labgrid:'rack-*'?coordinator=lab.example:20408&baud=115200")
        }
        guard !pattern.isEmpty else { throw mistake("no place given") }
        guard !pattern.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "&" }) else { throw mistake("a place name has no spaces, / or &") }
        var coordinator: String?
        var serialItems: [Substring] = []
        for item in query.split(separator: "&") {
            guard item.lowercased().hasPrefix("coordinator=") else {
                serialItems.append(item)
                continue
            }
            let address = item.dropFirst("coordinator=".count)
            guard coordinator == nil else { throw mistake("coordinator= is given twice") }
            guard !address.isEmpty, !address.contains(where: { $0.isWhitespace || $0 == "/" }) else {
                throw mistake("coordinator= takes HOST or HOST:PORT")
            }
            coordinator = String(address)
        }
        let options = try selectorQuery(Substring(serialItems.joined(separator: "&")), .serial).options
        return DeviceSelector(text: shown, form: .labgrid(pattern: String(pattern), coordinator: coordinator), options: options)
    }

    /// The ports a serial body selects: `*`, a path or serial-number pattern, or `KEY=GLOB[,KEY=GLOB…]`;
    /// nil for the one-device forms (a path, `usb=`, `serial-number=`, `tcp://`, `rfc2217://`, `auto`).
    private func serialPorts(_ pattern: Substring) throws(SelectorError) -> SerialPortSelector? {
        if pattern == "*" { return .auto }
        if pattern.hasPrefix("/"), GlobPattern.isPattern(pattern) { return .matching(try serialFilter("path=\(pattern)")) }
        if pattern.hasPrefix("serial-number="), GlobPattern.isPattern(pattern) {
            return .matching(try serialFilter("serial=\(pattern.dropFirst("serial-number=".count))"))
        }
        guard pattern.contains("="), !pattern.hasPrefix("/"), !pattern.hasPrefix("usb="), !pattern.hasPrefix("serial-number="),
              !SerialServerAddress.Kind.allCases.contains(where: { pattern.hasPrefix($0.scheme) })
        else { return nil }
        return .matching(try serialFilter(String(pattern)))
    }

    /// `KEY=GLOB[,KEY=GLOB…]`: a key of ours in any case (VID), else a udev property in capitals.
    private func serialFilter(_ text: String) throws(SelectorError) -> SerialPortFilter {
        var conditions: [SerialPortFilter.Condition] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw serialMistake("\"\(item)\" is not KEY=PATTERN")
            }
            let key = String(item[..<equals])
            let value = String(item[item.index(after: equals)...])
            guard !value.isEmpty else { throw serialMistake("\"\(key)=\" has no pattern") }
            let isProperty = !SerialPortFilter.keys.contains(key.lowercased())
            guard !isProperty || key.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }) else {
                throw serialMistake("unknown key \"\(key)\"")
            }
            let name = isProperty ? key : key.lowercased()
            guard !conditions.contains(where: { $0.key == name }) else { throw serialMistake("\"\(key)\" is given twice") }
            conditions.append(SerialPortFilter.Condition(key: name, glob: GlobPattern(value, ignoringCase: !(isProperty || name == "path"))))
        }
        return SerialPortFilter(conditions: conditions)
    }

    private func serialMistake(_ problem: String) -> SelectorError {
        SelectorError(
            "invalid serial selector \"\(shown)\": \(problem)",
            hint: "write serial:* (every likely SMP device) or serial:KEY=PATTERN[,KEY=PATTERN…] with KEY one of "
                + "\(SerialPortFilter.keys.joined(separator: ", ")) or a udev property in capitals (ID_MODEL); * and ? are wildcards, "
                + "e.g. serial:vid=2fe3,serial=E661*")
    }

    /// A selector's query: its options for every device, and `scan` for a BLE scan.
    private func selectorQuery(_ query: Substring, _ transport: Transport) throws(SelectorError) -> ConnectionQuery {
        do {
            return try ConnectionQuery(parsing: query, transport: transport, takesScan: transport == .ble)
        } catch {
            let problem: String
            var hint: String?
            func quoted(_ item: Substring) -> String { "\"\(ConnectionSecrets.redacted(String(item)))\"" }
            switch error {
            case .notNameValue(let item):
                problem = "\(quoted(item)): an option must be NAME=VALUE"
            case .twice(let item):
                problem = "\(quoted(item)): the option is given twice"
            case .scan(let item):
                problem = "\(quoted(item)): expected seconds greater than 0 and at most 3600"
                hint = "e.g. ble:name=Zephyr-*?scan=10"
            case .rejected(let item, _, let rejection, let accepted):
                problem = "\(quoted(item)): \(rejection)"
                let names = ConnectionQuery.names(for: transport, takesScan: transport == .ble)
                hint = "\(transport) selectors take \(names.joined(separator: ", ")); \(accepted)"
            }
            throw SelectorError("invalid selector \"\(shown)\": \(problem)", hint: hint)
        }
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

    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let text = Substring(self)
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return text[start..<Swift.max(start, end)]
    }
}

extension Character {
    /// 0–9 only (not other scripts' digits).
    var isASCIIDigit: Bool { isASCII && isNumber }
}
