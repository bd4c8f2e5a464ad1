import FoundationEssentials
import Glibc

exit(LensCtl.run(Array(CommandLine.arguments.dropFirst())).rawValue)
