import ArgumentParser
import SMPSimulator

extension SMPServerFlavour: ExpressibleByArgument {}
