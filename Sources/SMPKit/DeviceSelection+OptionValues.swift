extension DeviceSelection {
    /// Connection text (or any text) with the value of each option named in `names` (`NAME=VALUE`
    /// at the start or after a `?` or `&`, up to the next `&`; names in any case) replaced by
    /// `transform(value)`, and nothing else changed: `udp:h?dtls=1&ca=ca.pem` with `ca` made
    /// absolute gives `udp:h?dtls=1&ca=/home/me/ca.pem`.
    public static func replacingOptionValues(of names: Set<String>, in text: String, with transform: (Substring) -> String) -> String {
        var result = ""
        var item = Substring(text)
        while true {
            let itemEnd = item.firstIndex(of: "&") ?? item.endIndex
            var rest = item
            if let equals = item[..<itemEnd].firstIndex(of: "="), names.contains(item[..<equals].lowercased()) {
                result += item[...equals] + transform(item[item.index(after: equals)..<itemEnd])
                rest = item[itemEnd...]
            }
            guard let separator = rest.firstIndex(where: { $0 == "?" || $0 == "&" }) else { return result + rest }
            result += rest[...separator]
            item = rest[rest.index(after: separator)...]
        }
    }
}
