import ChestDaemon
import Glibc

Daemon.holdSignals()
Daemon.prepareHeap()
exit(Daemon.main(Array(CommandLine.arguments.dropFirst())))
