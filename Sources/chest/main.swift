import ChestCLI
import Glibc

exit(CLI.main(Array(CommandLine.arguments.dropFirst())))
