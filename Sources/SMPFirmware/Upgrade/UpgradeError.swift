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
    /// A further step that a front end names in its own terms (smpctl names its command).
    public var nextStep: SMPNextStep?

    /// Creates an error.
    public init(stage: String, step: String? = nil, underlying: any Error, hint: String? = nil, nextStep: SMPNextStep? = nil) {
        self.stage = stage
        self.step = step
        self.underlying = underlying
        self.hint = hint
        self.nextStep = nextStep
    }

    /// What a failed step suggests: a hint and a further step, either or both.
    public struct Advice: Sendable {
        var hint: String?
        var nextStep: SMPNextStep?

        /// Advice of a hint, a further step, or both.
        package init(_ hint: String? = nil, nextStep: SMPNextStep? = nil) {
            self.hint = hint
            self.nextStep = nextStep
        }
    }

    public var description: String { Self.message(stage: stage, step: step, reason: "\(underlying)") }

    /// `upgrade failed at step "upload image 0 (…)": REASON`, `cannot upgrade: REASON` for a plan
    /// the device's state rules out, or `upgrade failed (read the image list): REASON`.
    public static func message(stage: String, step: String?, reason: String) -> String {
        if step != nil { return "upgrade failed at step \"\(stage)\": \(reason)" }
        if stage == planStage { return "cannot upgrade: \(reason)" }
        return "upgrade failed (\(stage)): \(reason)"
    }

    /// The stage of a planning failure.
    public static let planStage = "plan"
}

/// What a verification after the reset found.
public struct UpgradeVerificationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
