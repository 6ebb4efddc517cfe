extension VirtualDeviceConfiguration {
    /// Turns the device into an NCS SUIT device (nRF54H20-like): the SUIT group with `suit`,
    /// bootloader info answering `"SUIT"`, and no image group.
    public mutating func makeSUITDevice(_ suit: SimulatedSUITConfiguration = SimulatedSUITConfiguration()) {
        self.suit = suit
        bootloaderName = "SUIT"
        images = nil
    }
}
