import ArgumentParser
import SMPSerial

extension SerialFraming: ExpressibleByArgument {}
