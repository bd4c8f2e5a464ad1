import Foundation
import LensCameraUI

exit(LensCameraApp.main(arguments: Array(CommandLine.arguments.dropFirst())))
