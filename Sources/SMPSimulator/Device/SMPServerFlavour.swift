/// How a virtual device speaks SMP: like a current Zephyr, or like an older server.
public enum SMPServerFlavour: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Zephyr ≥ 3.4: answers with version `min(request, 1)`, rejects versions above 1 with rc 13,
    /// reports group errors as `err {group, rc}` to v2 requests (translated to `rc` for v1
    /// requests), SMP-level errors as `rc`, puts no `rc` in successful responses, and writes
    /// indefinite-length maps as zcbor does.
    case zephyr
    /// Zephyr < 3.4, Mynewt: always answers with version 0, ignores the request's version bits,
    /// reports every error as `rc` (group errors translated to their `MGMT_ERR_*` code), adds
    /// `rc: 0` to successful responses, and writes definite-length maps.
    case legacy

    public var description: String { rawValue }
}
