"""Runs BlueZoo (PyPI `bluezoo`, GPL-2.0-only; a test tool here, never linked into or shipped with smpctl) with the
two corrections the tests need, then hands over to its own `main()` with the command-line options unchanged.

BlueZoo 1.0.2 (and its main branch at 8005dce) does not undo a connection's GATT objects on Disconnect: the
client-side service and characteristic objects stay exported and ServicesResolved stays true, so the next Connect
of the same device fails with "sd_bus_add_object_vtable ... returned error number: 17" (EEXIST). Every smpctl
command connects and disconnects once, and an upgrade reconnects after the device resets, so without this a
BlueZoo instance would serve one command. The correction: Disconnect sets ServicesResolved false on both sides
(as bluetoothd does) and removes the GATT objects, which Connect exports again.

BlueZoo models no IO capability for a device and pairs only when the default agent is NoInputNoOutput; with any
other agent its Pair() raises NotImplementedError inside and still answers success, Paired left false. A device
without input or output pairs Just Works whatever the other side's capability (Bluetooth Core, Vol 3 Part H,
2.3.5.1), which is what bluetoothd does; smpctl's agent is KeyboardDisplay. The correction: Pair() sees the agent's
capability as NoInputNoOutput for the time of the pairing, which is Just Works for every agent. Run it with the Python that has
bluezoo installed (the tests' SMPCTL_PYTHON).
"""

import sys

from bluezoo import bluezoo, device

bluezoo_disconnect = device.Device.disconnect


async def disconnect(self, uuid=None):
    await bluezoo_disconnect(self, uuid)
    for link in self.services.values():
        self.peer_adapter.mock.remove_object(link)
    self.services.clear()
    for side in (self.peer, self):
        if side is not None and side.services_resolved:
            await side.ServicesResolved.set_async(False)


device.Device.disconnect = disconnect

bluezoo_pair = device.Device.pair


async def pair(self):
    agent = self.adapter.mock.root.agent
    if agent is None:
        return await bluezoo_pair(self)
    capability, agent.capability = agent.capability, "NoInputNoOutput"
    try:
        await bluezoo_pair(self)
    finally:
        agent.capability = capability


device.Device.pair = pair

if __name__ == "__main__":
    sys.argv[0] = "bluezoo"
    sys.exit(bluezoo.main())
