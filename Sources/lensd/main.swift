import Foundation

exit(Daemon.run(arguments: Array(CommandLine.arguments.dropFirst())))
