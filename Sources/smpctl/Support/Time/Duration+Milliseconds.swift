extension Duration {
    /// The duration in milliseconds as a fraction.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    /// "1.22 ms"
    var millisecondsText: String {
        let value = milliseconds
        let rounded = (value * 100).rounded() / 100
        return "\(rounded) ms"
    }
}
