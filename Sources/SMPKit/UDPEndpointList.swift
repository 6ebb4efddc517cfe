/// The UDP endpoints a selector names: `udp:HOST1,HOST2:PORT` (each host with its own optional
/// port), `udp:[HOST:PORT,HOST:PORT]`, port ranges `udp:127.0.0.1:14000-14099` and IPv4 last-octet
/// ranges `udp:192.0.2.10-20` (both may combine).
enum UDPEndpointList {
    /// The most endpoints one selector may name.
    static let limit = 4096

    /// Whether the text after `udp:` (without options) names several endpoints or a range.
    static func isSelector(_ body: Substring) -> Bool {
        body.contains(",") || (!body.hasPrefix("[") && body.filter { $0 == ":" }.count <= 1
            && (portRange(body) != nil || octetRange(hostPart(body)) != nil))
    }

    /// The endpoints the text after `udp:` (without options) names, in the order written; every host
    /// is checked by the connection-string grammar.
    static func endpoints(_ body: Substring, selector: String) throws(SelectorError) -> [UDPEndpoint] {
        var list = body
        if list.hasPrefix("["), list.hasSuffix("]"), list.contains(",") { list = list.dropFirst().dropLast() }
        var endpoints: [UDPEndpoint] = []
        for item in list.split(separator: ",", omittingEmptySubsequences: false) {
            let item = item.trimmingSpaces
            guard !item.isEmpty else { throw usage(selector, "an empty entry between commas") }
            let hosts: [String]
            let ports: [Int]?
            if item.hasPrefix("[") || item.filter({ $0 == ":" }).count > 1 {
                hosts = [String(item)]  // IPv6: no ranges
                ports = nil
            } else {
                let host = hostPart(item)
                let portText = item.count > host.count ? item[item.index(item.startIndex, offsetBy: host.count + 1)...] : nil
                if let range = octetRange(host) {
                    guard range.low <= range.high, range.high <= 255 else {
                        throw usage(selector, "\"\(host)\": the last-octet range must run upwards within 0–255, e.g. 192.0.2.10-20")
                    }
                    hosts = (range.low...range.high).map { "\(range.prefix)\($0)" }
                } else {
                    hosts = [String(host)]
                }
                if let portText, let range = portRange(item) {
                    guard (1...65_535).contains(range.low), (1...65_535).contains(range.high), range.low <= range.high else {
                        throw usage(selector, "\"\(portText)\": the port range must run upwards within 1–65535, e.g. 14000-14099")
                    }
                    ports = Array(range.low...range.high)
                } else {
                    ports = nil
                }
                guard hosts.count * (ports?.count ?? 1) + endpoints.count <= limit else { throw tooMany(selector) }
                if let ports {
                    for host in hosts {
                        // The host checked once through the connection-string grammar, then every port.
                        let checked = try endpoint("udp:\(host):\(ports[0])", selector: selector).host
                        endpoints += ports.map { UDPEndpoint(host: checked, port: $0) }
                    }
                    continue
                }
                let suffix = portText.map { ":\($0)" } ?? ""
                for host in hosts { endpoints.append(try endpoint("udp:\(host)\(suffix)", selector: selector)) }
                continue
            }
            guard endpoints.count + hosts.count <= limit else { throw tooMany(selector) }
            for host in hosts { endpoints.append(try endpoint("udp:\(host)", selector: selector)) }
        }
        return endpoints
    }

    /// The host part of `HOST[:PORT]` (no IPv6).
    private static func hostPart(_ item: Substring) -> Substring {
        item.firstIndex(of: ":").map { item[..<$0] } ?? item
    }

    /// `A.B.C.LOW-HIGH` → ("A.B.C.", LOW, HIGH).
    private static func octetRange(_ host: Substring) -> (prefix: Substring, low: Int, high: Int)? {
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.dropLast().allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
              let range = numberRange(octets[3])
        else { return nil }
        return (host[..<octets[3].startIndex], range.low, range.high)
    }

    /// `HOST:LOW-HIGH` → (LOW, HIGH).
    private static func portRange(_ item: Substring) -> (low: Int, high: Int)? {
        guard let colon = item.firstIndex(of: ":") else { return nil }
        return numberRange(item[item.index(after: colon)...])
    }

    /// `LOW-HIGH`, both up to five digits.
    private static func numberRange(_ text: Substring) -> (low: Int, high: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...5).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }),
              let low = Int(parts[0]), let high = Int(parts[1])
        else { return nil }
        return (low, high)
    }

    /// One endpoint through the connection-string grammar, whose errors name the part that is wrong.
    private static func endpoint(_ text: String, selector: String) throws(SelectorError) -> UDPEndpoint {
        let connection: ConnectionString
        do {
            connection = try ConnectionTextParser(text).connection()
        } catch {
            throw SelectorError("in selector \"\(selector)\": \(error.description)", hint: "accepted forms:\n" + forms)
        }
        guard case .udp(let host, let port) = connection.target else { throw usage(selector, "\"\(text)\" is not a UDP endpoint") }
        return UDPEndpoint(host: host, port: port)
    }

    /// The UDP selector forms, for hints.
    static let forms = """
        udp:192.0.2.1,192.0.2.2:1338  udp:[192.0.2.1:1337,device.local]  udp:127.0.0.1:14000-14099  udp:192.0.2.10-20
        """

    private static func usage(_ selector: String, _ problem: String) -> SelectorError {
        SelectorError("invalid UDP selector \"\(selector)\": \(problem)", hint: "accepted forms:\n" + forms)
    }

    private static func tooMany(_ selector: String) -> SelectorError {
        SelectorError(
            "the UDP selector \"\(selector)\" names more than \(limit) devices",
            hint: "split it into several selectors (one per line of a targets file), each naming at most \(limit)")
    }
}
