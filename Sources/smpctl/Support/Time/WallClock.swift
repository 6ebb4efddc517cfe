import FoundationEssentials

/// Seconds since 1970-01-01T00:00:00Z, now.
func wallClockSeconds() -> Double {
    Date().timeIntervalSince1970
}
