import SMP

/// One kind of firmware upgrade, run by ``FirmwareUpgrade``: MCUboot images (``MCUbootUpgrader``,
/// planned by ``MCUbootUpgradePlanner``, where every bootloader mode plugs in) or a SUIT envelope
/// (``SUITUpgrader``, planned by ``SUITUpgradePlanner``). A new kind brings its own device state,
/// plan, steps and report, each conforming to the protocol-neutral ``UpgradeDeviceState``,
/// ``UpgradePlan``, ``UpgradeStep`` and ``UpgradeReport``, and reports through the same
/// ``UpgradeEvent``s; wrapped in an ``UpgradeContent``, it runs without any change to the front ends.
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
    associatedtype DeviceState: UpgradeDeviceState
    /// What the upgrade will do: the steps, in order.
    associatedtype Plan: UpgradePlan
    /// A finished upgrade.
    associatedtype Report: UpgradeReport

    /// Reads what the plan needs through `upgrade`'s connection (the upgrade reports it).
    mutating func inspect(in upgrade: isolated FirmwareUpgrade) async throws(UpgradeError) -> DeviceState

    /// Plans the installation of `content` on a device in `device`'s state: pure, no I/O.
    func plan(_ content: Content, device: DeviceState, options: UpgradeOptions) throws(UpgradePlanError) -> Plan

    /// Plans and installs `content` through `upgrade`.
    mutating func install(_ content: Content, in upgrade: isolated FirmwareUpgrade) async throws -> Report
}

extension FirmwareUpgrader {
    /// Reads the device's state and plans the installation of `content` without changing
    /// anything; the plan is reported. A plan the state rules out fails at the plan stage.
    mutating func plan(_ content: Content, in upgrade: isolated FirmwareUpgrade) async throws(UpgradeError) -> Plan {
        let state = try await inspect(in: upgrade)
        upgrade.events(.inspected(state))
        do {
            let plan = try plan(content, device: state, options: upgrade.options)
            upgrade.events(.planned(plan))
            return plan
        } catch {
            throw UpgradeError(stage: UpgradeError.planStage, underlying: error, hint: error.hint)
        }
    }
}
