import Glibc

exit(ChestWalk.parseOrExit().run())
