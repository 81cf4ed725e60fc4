// libgps, as Debian's libgps-dev installs it (gpsd 3.22, API 11).
#include <gps.h>

// What gps_unpack repeats for each JSON object of a line until it returns -1: it returns a positive error for a
// report it cannot parse and leaves the end pointer inside the line, so gps_unpack (and gps_read) then loop
// forever. chestd calls it once per line instead (docs/DESIGN.md "libgps calls"). libgps exports it; gps.h does
// not declare it.
int libgps_json_unpack(const char *buf, struct gps_data_t *gpsdata, const char **end);
