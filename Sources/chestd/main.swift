import ChestDaemon
import Glibc

exit(await Daemon.main(Array(CommandLine.arguments.dropFirst())))
