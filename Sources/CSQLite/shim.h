// The system's SQLite on Linux (apt: libsqlite3-dev). Apple platforms import the SDK's SQLite3
// module instead, so this target is only a dependency there on other platforms.
#include <sqlite3.h>
