import SMP
import SMPKit

/// The targets of a `labgrid:` selector: the coordinator's places that match, listed without
/// acquiring any; each target's connection is its place (`labgrid:PLACE`), acquired when the
/// device's turn comes (`LabgridCoordinator.withDevice(of:_:)`).
enum LabgridPlaceTargets {
    static func targets(
        _ pattern: String, coordinator: String?, options: ConnectionOptions, selector: String, label: String?
    ) async throws(TargetSelectionError) -> [DeviceTarget] {
        let address = LabgridCoordinator.address(option: coordinator)
        let places: [LabgridPlaceInfo]
        let all: [LabgridPlaceInfo]
        do {
            let lab = try await LabgridCoordinator.shared(address: address)
            places = try await lab.places(matching: pattern)
            all = places.isEmpty ? try await lab.places(matching: "*") : places
        } catch let error as SMPTransportError {
            throw TargetSelectionError(.transport, "listing the places of \"\(selector)\": \(error.message)", hint: error.hint)
        } catch {
            throw TargetSelectionError(.transport, "listing the places of \"\(selector)\": \(error)")
        }
        guard !places.isEmpty else {
            let seen = all.isEmpty ? "it has no places" : "its places: " + all.map(\.name).joined(separator: ", ")
            throw TargetSelectionError(.notFound, "no labgrid place matches \"\(selector)\" at the coordinator \(address)", hint: seen)
        }
        return places.enumerated().map { index, place in
            DeviceTarget(
                name: TargetNaming.name(label: label, index: index, count: places.count) ?? place.name,
                connection: ConnectionString(target: .labgridPlace(LabgridPlace(name: place.name, coordinator: coordinator)), options: options),
                identity: DeviceIdentity(address: place.serialPorts.first))
        }
    }
}
