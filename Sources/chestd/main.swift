import ChestDaemon
import Glibc

Daemon.prepareHeap()
exit(await Daemon.main(Array(CommandLine.arguments.dropFirst())))
