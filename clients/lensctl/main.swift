import Foundation

exit(LensCtl.run(Array(CommandLine.arguments.dropFirst())).rawValue)
