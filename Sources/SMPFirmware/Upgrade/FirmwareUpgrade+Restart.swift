import SMP

extension FirmwareUpgrade {
    /// Sends the reset. A lost answer is not a failure: the device may have gone down before its
    /// answer left; the wait that follows finds out.
    func reset(bootMode: UInt8? = nil) async throws {
        knownImages = nil
        do {
            try await client.send(OSReset(bootMode: bootMode))
        } catch {
            guard case .timeout = error else { throw error }
            events(.note("the device did not answer the reset; assuming it is restarting"))
        }
        // What restarts may have other buffers (the bootloader's recovery, new firmware).
        await client.forgetParameters()
    }

    /// Waits until the device answers again after its reset, then returns.
    ///
    /// The old firmware may still answer for a moment after acknowledging the reset (Zephyr waits
    /// 250 ms), so an answer counts once the image list differs from the one read before the
    /// reset, or once the device has been silent and the grace time has passed (a rejected
    /// DirectXIP image leaves the list as it was). Polls are echoes with a short timeout and no
    /// retry. A link that fails meanwhile (a USB device that re-enumerates, a refused UDP port),
    /// or a session the reset ended (DTLS) that stays silent, is reopened with ``reconnect`` when
    /// there is one. The last list read becomes ``knownImages``.
    func waitForDevice(changedFrom before: [ImageSlotState]) async throws {
        try await waitForDevice(sawSilence: false) { client in
            let images = try? await client.send(ImageState()).images
            knownImages = images
            return images.map { $0 != before }
        }
    }

    /// Waits until the device answers again after its reset, then returns: once `isChanged`
    /// (asked of the connection in use) says the device's state is the new one, or once the
    /// device has been silent (`sawSilence`: already before the wait) and the grace time has
    /// passed. `isChanged` gives nil when the state could not be read.
    func waitForDevice(sawSilence silenceBefore: Bool, isChanged: (SMPClient) async -> Bool?) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + options.resetTimeout
        if options.swapTime > .zero { try await Task.sleep(for: options.swapTime) }
        var sawSilence = silenceBefore
        while true {
            if await ping() {
                if let changed = await isChanged(client), changed || (sawSilence && clock.now >= start + options.resetGrace) {
                    return
                }
            } else {
                sawSilence = true
            }
            guard clock.now < deadline else {
                // The time it really took: a USB device that is gone holds a poll for as long as
                // the serial transport waits for it to come back, which may end past the deadline.
                let waited = Duration.milliseconds(((clock.now - start) / .milliseconds(100)).rounded(.down) * 100)
                throw UpgradeVerificationError(
                    sawSilence
                        ? "the device did not answer within \(waited) after its reset"
                        : "the device kept answering with the state from before the reset for \(waited): it did not reset")
            }
            try await Task.sleep(for: .milliseconds(sawSilence ? 200 : 50))
        }
    }

    /// One echo with the poll timeout and no retry; a failed link is reopened. Any answer counts,
    /// an error too (MCUboot's serial recovery may not implement echo).
    func ping() async -> Bool {
        var request = OSEcho("smpctl").request
        request.isRetrySafe = false
        request.timeout = options.pollTimeout
        do {
            _ = try await client.checkedResponse(to: request)
            return true
        } catch {
            if case .device = error { return true }
            switch error {
            case .transport: await replaceClient()
            case .timeout where client.transport.sessionEndsWithDeviceReset: await replaceClient()
            default: break
            }
            return false
        }
    }

    /// Opens a new connection in place of a failed one, if the caller gave a way to.
    private func replaceClient() async {
        guard let reconnect else { return }
        do {
            let fresh = try await reconnect()
            ownedClients.append(fresh)
            client = fresh
            events(.note("reconnected after the reset"))
        } catch {
            try? await Task.sleep(for: options.pollTimeout)
        }
    }
}
