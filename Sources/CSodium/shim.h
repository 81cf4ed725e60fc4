// libsodium, as Debian's libsodium-dev installs it.
#include <sodium.h>
