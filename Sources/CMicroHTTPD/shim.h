// GNU libmicrohttpd, as Debian's libmicrohttpd-dev installs it.
#include <sys/types.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>
#include <malloc.h>

// MHD_start_daemon, MHD_get_daemon_info and MHD_get_connection_info are variadic, which Swift cannot call: these
// take the options chest uses, each calling libmicrohttpd's own (CLazyLibraries, where libmicrohttpd is opened).
struct MHD_Daemon *chest_mhd_start(unsigned int flags, const struct sockaddr *address,
                                   MHD_AcceptPolicyCallback accept_policy, MHD_AccessHandlerCallback handler,
                                   MHD_NotifyConnectionCallback notify_connection,
                                   MHD_RequestCompletedCallback notify_completed, void *context,
                                   unsigned int idle_timeout, unsigned int connection_limit, unsigned int threads);
int chest_mhd_connection_fd(struct MHD_Connection *connection);
const struct sockaddr *chest_mhd_client_address(struct MHD_Connection *connection);
void *chest_mhd_socket_context(struct MHD_Connection *connection);
uint16_t chest_mhd_bound_port(struct MHD_Daemon *daemon);

// Blocks of 128 KiB and more mapped on their own and unmapped when freed, whatever was freed before. glibc otherwise
// raises this threshold to the size of each large block freed (up to 32 MiB), after which the board's renderings and
// event-stream updates, megabytes each at 5,000 teams, come from the server threads' malloc arenas and their pages stay
// resident there once freed (docs/BENCHMARKS.md "A city"). Swift's Glibc module has no malloc.h.
static inline void chest_map_large_allocations(void) {
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
}
