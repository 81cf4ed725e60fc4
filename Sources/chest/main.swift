import ChestCLI
import ChestDaemon
import ChestWeather
import Dispatch
import Glibc

// One program, four names, as busybox: it is what it is called by (links in /usr/bin and /usr/libexec/chest, and
// the name chestd and chest give the companions they start from their own executable, ChestIO's HelperProcess).
let arguments = Array(CommandLine.arguments.dropFirst())
switch CommandLine.arguments.first?.split(separator: "/").last ?? "chest" {
case "chestd":
    Daemon.holdSignals()
    Daemon.prepareHeap()
    exit(Daemon.main(arguments))
case "chest-walk":
    exit(ChestWalk.main(arguments))
case "chest-weather":
    Task { exit(await WeatherHelper.main()) }
    dispatchMain()
default:
    exit(CLI.main(arguments))
}
