// libmosquitto (the Eclipse Mosquitto client library), as Debian's libmosquitto-dev installs it.
#include <mosquitto.h>
