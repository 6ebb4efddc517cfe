import SMP

/// An upgrade step that failed: which one, and why.
public struct UpgradeError: Error, Sendable, CustomStringConvertible {
    /// What the upgrade was doing: "read the image list", or a step's summary.
    public var stage: String
    /// The step's name (`upload`, `reset`…), or nil before the plan.
    public var step: String?
    /// Why it failed.
    public var underlying: any Error
    /// What the user could try, when the step knows better than the underlying error.
    public var hint: String?

    /// Creates an error.
    public init(stage: String, step: String? = nil, underlying: any Error, hint: String? = nil) {
        self.stage = stage
        self.step = step
        self.underlying = underlying
        self.hint = hint
    }

    public var description: String { "upgrade failed at \"\(stage)\": \(underlying)" }
}

/// What a verification after the reset found.
public struct UpgradeVerificationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
