/// Keeps secrets of connection text out of what is shown: a PSK given in a connection string
/// (`psk=HEX`) is shown as `psk=<hidden>` in errors, descriptions, reports and logs.
public enum ConnectionSecrets {
    /// What a secret is shown as.
    public static let hidden = "<hidden>"

    /// The option names whose values are secret.
    static let names: Set<String> = ["psk"]

    /// `text` with the value of each secret option (`psk=…` at the start or after a `?` or `&`,
    /// up to the next `&`) replaced by ``hidden``; any other text unchanged. Safe on any text: a
    /// connection string, a selector, one option (`psk=…`), a command line's word, a mistyped string.
    public static func redacted(_ text: String) -> String {
        DeviceSelection.replacingOptionValues(of: names, in: text) { _ in hidden }
    }
}
