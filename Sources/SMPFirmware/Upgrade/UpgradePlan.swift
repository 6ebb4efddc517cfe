/// What an upgrade will do: one decision per image of the package, and the steps in order.
public struct UpgradePlan: Sendable, Equatable {
    /// What the plan does with one image of the package.
    public struct Decision: Sendable, Equatable {
        /// What happens to the image.
        public enum Action: Sendable, Equatable {
            /// Upload it.
            case upload
            /// The device already holds it in a non-running slot (pending or not); no upload.
            case alreadyUploaded(slot: UInt64, pending: Bool, permanent: Bool)
            /// The device already runs it.
            case running(confirmed: Bool)
            /// Not installed: the device runs from the other slot this DirectXIP variant is linked for.
            case otherSlotVariant
        }

        /// The image.
        public var image: UpgradeImage
        /// What happens to it.
        public var action: Action
        /// Why, in words.
        public var reason: String
    }

    /// The upgrade mode in force (``UpgradeOptions/mode``).
    public var mode: UpgradeMode
    /// One decision per image of the package, in installation order.
    public var decisions: [Decision]
    /// The steps, in order; empty when there is nothing to do.
    public var steps: [UpgradeStep]
    /// Things the user should know (assumptions, replaced pending images, mode adjustments).
    public var notes: [String]

    /// Whether the device already has everything: no step to run.
    public var isNothingToDo: Bool { steps.isEmpty }
}
