import FoundationEssentials
import SMPKit

/// One group of settings in the config file: its `defaults` section, or one profile.
///
/// The keys are `connection`, every connection-string option (`timeout`, `retries`, `baud`,
/// `mtu`, … as in docs/connection-strings.md, with the same values) and the upload tuning
/// (`window`, `align`). Any other key is an error, so a typo is reported rather than ignored.
struct ConfigSettings: Equatable, Sendable {
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

    /// Reads one settings group of the file's YAML tree, at `path` (`["profiles", "lab"]`): its
    /// keys in the file's order, each once (see ``YAMLNode/configPairs(at:)``).
    ///
    /// - Throws: ``ConfigProblem`` for a group that is not a mapping, an unknown key, or a value
    ///   of the wrong kind. The values are checked by ``validate(at:)``.
    init(node: YAMLNode, at path: [String]) throws(ConfigProblem) {
        for (key, value) in try node.configPairs(at: path) {
            switch key {
            case "connection": connection = try value.configText(at: path + [key])
            case "window": window = try value.configWholeNumber(at: path + [key])
            case "align": align = try value.configWholeNumber(at: path + [key])
            case let name where Self.optionNames.contains(name): options[name] = try value.configText(at: path + [key])
            default:
                throw ConfigProblem(
                    path: path + [key], message: "unknown key \"\(key)\"", hint: "the keys are \(Self.keys.joined(separator: ", ")) (docs/configuration.md)")
            }
        }
    }

    /// The problem of a PSK written into the config file at `path`: it names the file to keep it in instead.
    static func pskRefusal(at path: [String]) -> ConfigProblem {
        let holder = path.first == "defaults" ? "the defaults store" : "a profile stores"
        return ConfigProblem(
            path: path, message: "\(holder) the path of a key, not the key: use psk-file=PATH",
            hint: "write the key as hex digits into a file only you can read (chmod 600) and name it in the connection string: "
                + "udp:HOST?dtls=1&psk-id=ID&psk-file=PATH")
    }

    /// The connection-string options a group may set (``ConnectionOptions/allNames``, worked out once).
    private static let optionNames = Set(ConnectionOptions.allNames)

    /// The group's YAML tree, for ``YAMLWriter``: its keys in ``keys`` order; numbers as YAML
    /// numbers, not quoted text.
    var node: YAMLNode {
        var pairs: [(YAMLNode, YAMLNode)] = []
        if let connection { pairs.append((YAMLNode("connection"), .text(connection))) }
        for (name, value) in orderedOptions {
            // A number as Decimal writes it (`2.5`, `1000` for `1e3`), never in scientific notation.
            let scalar: YAMLNode =
                if let number = Int(value) {
                    YAMLNode(String(number))
                } else if Double(value) != nil, let number = Decimal(string: value) {
                    YAMLNode(number.description)
                } else {
                    .text(value)
                }
            pairs.append((YAMLNode(name), scalar))
        }
        if let window { pairs.append((YAMLNode("window"), YAMLNode(String(window)))) }
        if let align { pairs.append((YAMLNode("align"), YAMLNode(String(align)))) }
        return YAMLNode(pairs)
    }

    /// Checks every value: the connection (a connection string or a selector) parses, each option is valid for some transport
    /// (for this group's own transport when it names a connection), window and align are in range.
    /// `path` is where the group is in the file (`["profiles", "lab"]`), for the problem's location.
    /// A PSK is refused (``pskRefusal(at:)``): the file keeps the path of a key file, not the key.
    func validate(at path: [String]) throws(ConfigProblem) {
        var transports = Transport.allCases
        if let connection {
            let selection: DeviceSelection
            do {
                selection = try DeviceSelection(parsing: connection)
            } catch {
                throw ConfigProblem(path: path + ["connection"], message: error.message, hint: error.hint)
            }
            transports = [selection.transport]
            if selection.options.dtls.psk != nil { throw Self.pskRefusal(at: path + ["connection"]) }
        }
        if options["psk"] != nil { throw Self.pskRefusal(at: path + ["psk"]) }
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
