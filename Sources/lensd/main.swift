import Foundation
import LensDaemon

exit(Daemon.run(arguments: Array(CommandLine.arguments.dropFirst())))
