import SMP

/// One kind of firmware upgrade, run by ``FirmwareUpgrade``: MCUboot images (``MCUbootUpgrader``,
/// planned by ``MCUbootUpgradePlanner``, where every bootloader mode plugs in) or a SUIT envelope
/// (``SUITUpgrader``, planned by ``SUITUpgradePlanner``).
///
/// An upgrader reads the device's state, plans from it (pure, no I/O), and installs: it runs the
/// plan's steps through the upgrade's shared step loop, resets, waits and events. Its stored
/// properties are what one run learns (a refused mark, an upload to start over).
///
/// ```swift
/// let upgrade = FirmwareUpgrade(client: client)
/// print(try await upgrade.plan(images, with: .mcuboot).steps.map(\.summary))
/// let report = try await upgrade.run(package, with: .suit)
/// ```
public protocol FirmwareUpgrader: Sendable {
    /// What is installed: MCUboot images, a SUIT package.
    associatedtype Content: Sendable
    /// What the plan needs to know of the device.
    associatedtype DeviceState: Sendable
    /// What the upgrade will do: the steps, in order.
    associatedtype Plan: Sendable
    /// A finished upgrade.
    associatedtype Report: Sendable

    /// Reads what the plan needs through `upgrade`'s connection, and reports it.
    mutating func inspect(in upgrade: isolated FirmwareUpgrade) async throws(UpgradeError) -> DeviceState

    /// Plans the installation of `content` on a device in `device`'s state: pure, no I/O.
    func plan(_ content: Content, device: DeviceState, options: UpgradeOptions) throws(UpgradePlanError) -> Plan

    /// The event that reports a plan.
    static func planned(_ plan: Plan) -> UpgradeEvent

    /// Plans and installs `content` through `upgrade`.
    mutating func install(_ content: Content, in upgrade: isolated FirmwareUpgrade) async throws -> Report
}

extension FirmwareUpgrader {
    /// Reads the device's state and plans the installation of `content` without changing
    /// anything; the plan is reported. A plan the state rules out fails at the plan stage.
    mutating func plan(_ content: Content, in upgrade: isolated FirmwareUpgrade) async throws(UpgradeError) -> Plan {
        let state = try await inspect(in: upgrade)
        do {
            let plan = try plan(content, device: state, options: upgrade.options)
            upgrade.events(Self.planned(plan))
            return plan
        } catch {
            throw UpgradeError(stage: UpgradeError.planStage, underlying: error, hint: error.hint)
        }
    }
}
