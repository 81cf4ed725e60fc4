// libgps, as Debian's libgps-dev installs it (gpsd 3.22, API 11).
#include <gps.h>
