/// The serial console framing (``SerialFraming``, ``SerialFrameEncoder``, ``SerialFrameDecoder``…)
/// is part of this transport's interface, so importing `SMPSerial` imports it too. It lives in
/// `SMPConsoleFraming`, which has no system library, so that the simulator shares it without
/// depending on the serial transport.
@_exported import SMPConsoleFraming
