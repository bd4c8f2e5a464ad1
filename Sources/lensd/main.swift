import FoundationEssentials
import Glibc
import LensDaemon

exit(Daemon.run(arguments: Array(CommandLine.arguments.dropFirst())))
