import ArgumentParser
import SMPSimulator

extension NordicDFUPeripheral.ButtonlessService: ExpressibleByArgument {}
