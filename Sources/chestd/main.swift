import ChestDaemon
import Glibc

Daemon.prepareHeap()
exit(Daemon.main(Array(CommandLine.arguments.dropFirst())))
