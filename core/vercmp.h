/*
 * vercmp.h - which of two versions is newer, by each ecosystem's own rules:
 * PEP 440 for PyPI, conda's VersionOrder for conda packages, SemVer 2.0 for
 * npm. Used by the diff (core/diff.c) to tell an upgrade from a downgrade.
 *
 * Every comparison is total: a string the ecosystem's grammar does not
 * accept falls back to the conda order (numbers as numbers, letters before
 * numbers), which still puts "1.10" after "1.9". Pure functions, no
 * allocation; inputs must be NUL-terminated, NULL sorts first.
 */
#ifndef SB_VERCMP_H
#define SB_VERCMP_H

#include "model.h"

/* <0, 0, >0 as a is older than, the same version as, or newer than b. */
int sb_vercmp_pep440(const char *a, const char *b);
int sb_vercmp_conda(const char *a, const char *b);
int sb_vercmp_semver(const char *a, const char *b);

/* Composer (PHP's version_compare on Composer's normalized versions; dev-
 * branches first), NuGet (four-part SemVer 2) and Pub (SemVer 2 with build
 * metadata ordered). */
int sb_vercmp_composer(const char *a, const char *b);
int sb_vercmp_nuget(const char *a, const char *b);
int sb_vercmp_pub(const char *a, const char *b);
/* Conan's: items compared as numbers or text, trailing zeros ignored, a
 * pre-release ("-...") below its release, the build ("+...") above it. */
int sb_vercmp_conan(const char *a, const char *b);

/* By a package kind's rules: sb_vercmp in ecosystem.h (each row names its order). */

/* Go modules: SemVer with 'v', pseudo-versions as the pre-releases they
 * are, "+incompatible" not ordering. */
int sb_vercmp_go(const char *a, const char *b);
/* Maven's ComparableVersion (Gradle's artifacts come from Maven repositories). */
int sb_vercmp_maven(const char *a, const char *b);
/* RubyGems' Gem::Version (gems; CocoaPods' Pod::Version is built on it). */
int sb_vercmp_gem(const char *a, const char *b);

#endif
