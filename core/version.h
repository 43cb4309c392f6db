/* version.h - sbomd's version, recorded in every document it writes. */
#ifndef SB_VERSION_H
#define SB_VERSION_H
#define SB_VERSION "0.1.0"
#define SB_TOOL_NAME "sbomd"
#endif
