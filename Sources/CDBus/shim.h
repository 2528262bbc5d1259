#include <dbus/dbus.h>

/* libdbus spells its type codes as casts, e.g. `#define DBUS_TYPE_STRING ((int) 's')`, and Swift imports
   no macro that is not a plain literal. These constants give Swift the same values under one prefix, so
   Swift code never repeats the codes as magic numbers. */

static const int T2M_DBUS_TYPE_INVALID = DBUS_TYPE_INVALID;
static const int T2M_DBUS_TYPE_BYTE = DBUS_TYPE_BYTE;
static const int T2M_DBUS_TYPE_BOOLEAN = DBUS_TYPE_BOOLEAN;
static const int T2M_DBUS_TYPE_INT16 = DBUS_TYPE_INT16;
static const int T2M_DBUS_TYPE_UINT16 = DBUS_TYPE_UINT16;
static const int T2M_DBUS_TYPE_INT32 = DBUS_TYPE_INT32;
static const int T2M_DBUS_TYPE_UINT32 = DBUS_TYPE_UINT32;
static const int T2M_DBUS_TYPE_INT64 = DBUS_TYPE_INT64;
static const int T2M_DBUS_TYPE_UINT64 = DBUS_TYPE_UINT64;
static const int T2M_DBUS_TYPE_DOUBLE = DBUS_TYPE_DOUBLE;
static const int T2M_DBUS_TYPE_STRING = DBUS_TYPE_STRING;
static const int T2M_DBUS_TYPE_OBJECT_PATH = DBUS_TYPE_OBJECT_PATH;
static const int T2M_DBUS_TYPE_SIGNATURE = DBUS_TYPE_SIGNATURE;
static const int T2M_DBUS_TYPE_UNIX_FD = DBUS_TYPE_UNIX_FD;
static const int T2M_DBUS_TYPE_ARRAY = DBUS_TYPE_ARRAY;
static const int T2M_DBUS_TYPE_VARIANT = DBUS_TYPE_VARIANT;
static const int T2M_DBUS_TYPE_STRUCT = DBUS_TYPE_STRUCT;
static const int T2M_DBUS_TYPE_DICT_ENTRY = DBUS_TYPE_DICT_ENTRY;

static const int T2M_DBUS_MESSAGE_TYPE_METHOD_CALL = DBUS_MESSAGE_TYPE_METHOD_CALL;
static const int T2M_DBUS_MESSAGE_TYPE_METHOD_RETURN = DBUS_MESSAGE_TYPE_METHOD_RETURN;
static const int T2M_DBUS_MESSAGE_TYPE_ERROR = DBUS_MESSAGE_TYPE_ERROR;
static const int T2M_DBUS_MESSAGE_TYPE_SIGNAL = DBUS_MESSAGE_TYPE_SIGNAL;

/* A cast macro as well: the "no timeout" value for dbus_connection_send_with_reply. */
static const int T2M_DBUS_TIMEOUT_INFINITE = DBUS_TIMEOUT_INFINITE;
