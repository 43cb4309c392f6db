/* version.h - sbomd's version, recorded in every document it writes. */
#ifndef SB_VERSION_H
#define SB_VERSION_H
#define SB_VERSION "0.1.0"
#define SB_TOOL_NAME "sbomd"
/* Where a document names its detector when the operator gives no URL
 * (--detector-url): the tool's own purl, as CycloneDX's tool entry names it;
 * sbomd has no address of its own to state. */
#define SB_TOOL_URL "pkg:generic/" SB_TOOL_NAME "@" SB_VERSION
#endif
