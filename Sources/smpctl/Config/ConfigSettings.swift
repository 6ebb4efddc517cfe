import FoundationEssentials
import SMPKit

/// One group of settings in the config file: its `defaults` section, or one profile.
///
/// The keys are `connection`, every connection-string option (`timeout`, `retries`, `baud`,
/// `mtu`, … as in docs/connection-strings.md, with the same values) and the upload tuning
/// (`window`, `align`). Any other key is an error, so a typo is reported rather than ignored.
struct ConfigSettings: Codable, Equatable, Sendable {
    /// The connection string (`-c`).
    var connection: String?
    /// Connection-string options by name, valued as in a connection string (`"baud": "115200"`).
    var options: [String: String] = [:]
    /// Upload chunks in flight (`--window`).
    var window: Int?
    /// Upload chunk alignment in bytes (`--align`).
    var align: Int?

    init(connection: String? = nil, options: [String: String] = [:], window: Int? = nil, align: Int? = nil) {
        self.connection = connection
        self.options = options
        self.window = window
        self.align = align
    }

    /// Every key a settings group may hold, in the order they are written.
    static var keys: [String] { ["connection"] + ConnectionOptions.allNames + ["window", "align"] }

    /// Whether nothing is set.
    var isEmpty: Bool { self == ConfigSettings() }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ConfigKey.self)
        for key in container.allKeys {
            switch key.stringValue {
            case "connection": connection = try container.decode(String.self, forKey: key)
            case "window": window = try container.decode(Int.self, forKey: key)
            case "align": align = try container.decode(Int.self, forKey: key)
            case let name where ConnectionOptions.allNames.contains(name):
                options[name] = try container.decode(String.self, forKey: key)
            default:
                throw ConfigProblem(
                    path: decoder.codingPath.map(\.stringValue) + [key.stringValue],
                    message: "unknown key \"\(key.stringValue)\"",
                    hint: "the keys are \(Self.keys.joined(separator: ", ")) (docs/configuration.md)")
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ConfigKey.self)
        try container.encodeIfPresent(connection, forKey: ConfigKey("connection"))
        for name in ConnectionOptions.allNames {
            guard let value = options[name] else { continue }
            // Numbers and booleans as YAML numbers and booleans, not quoted strings.
            if let number = Int(value) {
                try container.encode(number, forKey: ConfigKey(name))
            } else if Double(value) != nil, let number = Decimal(string: value) {
                // Decimal, not Double: Yams writes a Double in scientific notation (2.5e+0).
                try container.encode(number, forKey: ConfigKey(name))
            } else {
                try container.encode(value, forKey: ConfigKey(name))
            }
        }
        try container.encodeIfPresent(window, forKey: ConfigKey("window"))
        try container.encodeIfPresent(align, forKey: ConfigKey("align"))
    }

    /// Checks every value: the connection (a connection string or a selector) parses, each option is valid for some transport
    /// (for this group's own transport when it names a connection), window and align are in range.
    /// `path` is where the group is in the file (`["profiles", "lab"]`), for the problem's location.
    func validate(at path: [String]) throws(ConfigProblem) {
        var transports = Transport.allCases
        if let connection {
            do {
                transports = [try DeviceSelection(parsing: connection).transport]
            } catch {
                throw ConfigProblem(path: path + ["connection"], message: error.message, hint: error.hint)
            }
        }
        for name in ConnectionOptions.allNames {
            guard let value = options[name] else { continue }
            let takers = transports.filter { ConnectionOptions.names(for: $0).contains(name) }
            guard let first = takers.first else {
                throw ConfigProblem(
                    path: path + [name], message: "\(transports[0]) connections do not take \"\(name)\"",
                    hint: "\(transports[0]) takes \(ConnectionOptions.names(for: transports[0]).joined(separator: ", "))")
            }
            var scratch = ConnectionOptions()
            do {
                try scratch.set(name, to: value, transport: first)
            } catch {
                throw ConfigProblem(path: path + [name], message: "\(name): \(value): \(error.problem)", hint: error.hint)
            }
        }
        if let window, !NumericRange.window.contains(Double(window)) {
            throw ConfigProblem(path: path + ["window"], message: "window takes \(NumericRange.window.quantity) \(NumericRange.window.bounds), not \(window)")
        }
        if let align, !NumericRange.align.contains(Double(align)) {
            throw ConfigProblem(path: path + ["align"], message: "align takes \(NumericRange.align.quantity) \(NumericRange.align.bounds), not \(align)")
        }
    }
}

/// A key of the config file's mappings, any string.
struct ConfigKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
