/*
 * test_marker.c - PEP 508 markers over the platform table, the
 * requires-python floor, the wheel choice rule and requirement strings.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/marker.h"

static int eval(const char *platform, const char *python, const char *marker)
{
    sb_marker_env env;
    sb_err err;
    if (sb_marker_env_init(&env, platform, python) != SB_OK)
        return -2;
    return sb_marker_eval(marker, &env, &err);
}

TEST(marker_platforms_and_versions)
{
    CHECK(eval("linux-64", "3.9", "sys_platform == 'linux'") == 1);
    CHECK(eval("win-64", "3.9", "sys_platform == 'linux'") == 0);
    CHECK(eval("win-64", "3.9", "sys_platform == \"win32\" and platform_machine == 'AMD64'") == 1);
    CHECK(eval("osx-arm64", "3.12", "platform_machine == 'arm64' and sys_platform == 'darwin'") == 1);
    CHECK(
        eval(
            "linux-aarch64", "3.12",
            "(platform_machine == 'AMD64' and sys_platform == 'linux') or (platform_machine == 'x86_64' and sys_platform == 'linux')") ==
        0);
    CHECK(eval("linux-64", "3.9", "python_version < '3.10'") == 1);
    CHECK(eval("linux-64", "3.10", "python_version < '3.10'") == 0);
    CHECK(eval("linux-64", "3.8", "python_full_version >= '3.8.1'") == 0);
    CHECK(eval("linux-64", "3.11", "python_version == '3.11.*'") == 1);
    CHECK(eval("linux-64", "3.11", "python_version ~= '3.9'") == 1);
    CHECK(eval("linux-64", "3.9", "'linux' in sys_platform") == 1);
    CHECK(eval("linux-64", "3.9", "platform_system not in 'Windows Darwin'") == 1);
    CHECK(eval("linux-64", "3.9", "implementation_name == 'pypy'") == 0);
    CHECK(eval("linux-64", "3.9", "extra == 'socks'") == 0);
    CHECK(eval("linux-64", "3.9", "") == 1);
    CHECK(eval("linux-64", "3.9", "python_version <") == -1);
    CHECK(eval("linux-64", "3.9", "bogus_var == '1'") == -1);
    CHECK(eval("linux-64", "3.9", "(sys_platform == 'linux'") == -1);
    CHECK(eval("solaris", "3.9", "sys_platform == 'linux'") == -2);
}

TEST(marker_extras)
{
    sb_marker_env env;
    sb_err err;
    const char *ex[] = {"socks"};
    CHECK(sb_marker_env_init(&env, "linux-64", "3.9") == SB_OK);
    env.extras = ex;
    env.nextras = 1;
    CHECK(sb_marker_eval("extra == 'SOCKS'", &env, &err) == 1);
    CHECK(sb_marker_eval("extra == 'other'", &env, &err) == 0);
    CHECK(sb_marker_eval("'socks' in extras", &env, &err) == 1);
    env.all_extras = true;
    CHECK(sb_marker_eval("extra == 'other' and python_version >= '3'", &env, &err) == 1);
}

TEST(marker_python_floor)
{
    char out[16];
    sb_marker_python_floor(">=3.9", NULL, out);
    CHECK_STR(out, "3.9");
    sb_marker_python_floor("==3.12.*", NULL, out);
    CHECK_STR(out, "3.12");
    sb_marker_python_floor("<4, >=3.8.1", NULL, out);
    CHECK_STR(out, "3.8");
    sb_marker_python_floor("^3.10", "3.14", out);
    CHECK_STR(out, "3.10");
    sb_marker_python_floor("<3.13", "3.14", out);
    CHECK_STR(out, "3.14");
    sb_marker_python_floor(NULL, NULL, out);
    CHECK_STR(out, "3.14");
}

TEST(marker_wheel_choice)
{
    const char *w[] = {
        "https://x/pkg-1.0-cp312-cp312-macosx_11_0_arm64.whl",
        "pkg-1.0-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
        "pkg-1.0-cp312-cp312-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
        "pkg-1.0-cp38-abi3-win_amd64.whl",
        "pkg-1.0-cp312-cp312-musllinux_1_2_aarch64.whl",
    };
    CHECK(sb_marker_choose_wheel(w, 5, true, "linux-64", "3.12") == 2);
    CHECK(sb_marker_choose_wheel(w, 5, true, "linux-64", "3.9") == 1);
    CHECK(sb_marker_choose_wheel(w, 5, true, "osx-arm64", "3.12") == 0);
    CHECK(sb_marker_choose_wheel(w, 5, true, "win-64", "3.12") == 3);
    CHECK(sb_marker_choose_wheel(w, 5, true, "linux-aarch64", "3.12") == 4);
    CHECK(sb_marker_choose_wheel(w, 5, true, "osx-64", "3.12") == -1);
    CHECK(sb_marker_choose_wheel(w, 5, false, "osx-64", "3.12") == 0);
    const char *any[] = {"a-1-cp312-cp312-win_amd64.whl", "a-1-py3-none-any.whl"};
    CHECK(sb_marker_choose_wheel(any, 2, true, "win-64", "3.12") == 1);
    CHECK(sb_marker_choose_wheel(NULL, 0, false, "win-64", "3.12") == -2);
}

TEST(marker_requirements)
{
    sb_arena *a = sb_arena_new(0);
    sb_req r;
    sb_err err;
    CHECK(sb_req_parse(&r, a, "requests[socks, security] (>=2.8.1,<3) ; python_version >= '3.7'", &err) == SB_OK);
    CHECK_STR(r.name, "requests");
    CHECK_STR(r.extras, "socks,security");
    CHECK_STR(r.spec, ">=2.8.1,<3");
    CHECK_STR(r.marker, "python_version >= '3.7'");
    CHECK(sb_req_parse(&r, a, "pip @ https://github.com/pypa/pip/archive/1.3.1.zip ; os_name == 'nt'", &err) == SB_OK);
    CHECK_STR(r.url, "https://github.com/pypa/pip/archive/1.3.1.zip");
    CHECK_STR(r.marker, "os_name == 'nt'");
    CHECK(sb_req_parse(&r, a, "six", &err) == SB_OK);
    CHECK(r.spec == NULL && r.marker == NULL && r.extras == NULL);
    CHECK(sb_req_parse(&r, a, ">=1", &err) == SB_EPARSE);
    sb_arena_destroy(a);
}

/* requires-python against an interpreter: the python report's Satisfied
 * column (spec 10.3), the cases the report's own evaluator handled before
 * it became this one. */
TEST(marker_spec_match)
{
    CHECK(sb_marker_spec_match(">=3.8", "3.12.4") == 1);
    CHECK(sb_marker_spec_match(">=3.8", "3.8.0") == 1);
    CHECK(sb_marker_spec_match(">=3.8", "3.7.17") == 0);
    CHECK(sb_marker_spec_match(">= 3.8", "3.9") == 1); /* blank after the operator */
    CHECK(sb_marker_spec_match(">3.8", "3.8.0") == 0); /* 3.8 == 3.8.0 at the release level */
    CHECK(sb_marker_spec_match(">3.8", "3.8.1") == 1);
    CHECK(sb_marker_spec_match("<3.10", "3.9.18") == 1);
    CHECK(sb_marker_spec_match("<3.10", "3.10.0") == 0);
    CHECK(sb_marker_spec_match("<=3.10", "3.10.0") == 1);
    CHECK(sb_marker_spec_match("<=3.10", "3.10.1") == 0);
    CHECK(sb_marker_spec_match("~=3.8", "3.12.4") == 1);
    CHECK(sb_marker_spec_match("~=3.8", "4.0") == 0);
    CHECK(sb_marker_spec_match("~=3.8.1", "3.8.5") == 1);
    CHECK(sb_marker_spec_match("~=3.8.1", "3.9.0") == 0);
    CHECK(sb_marker_spec_match("~=3.8.1", "3.8.0") == 0);
    CHECK(sb_marker_spec_match("==3.*", "3.11.9") == 1);
    CHECK(sb_marker_spec_match("==3.11.*", "3.11.9") == 1);
    CHECK(sb_marker_spec_match("==3.11.*", "3.12.0") == 0);
    CHECK(sb_marker_spec_match("==3.11", "3.11.0") == 1);
    CHECK(sb_marker_spec_match("==3.11", "3.11.4") == 0);
    CHECK(sb_marker_spec_match("===3.11", "3.11.0") == 1);
    CHECK(sb_marker_spec_match("!=3.9.*", "3.9.2") == 0);
    CHECK(sb_marker_spec_match("!=3.9.*", "3.10.2") == 1);
    CHECK(sb_marker_spec_match("!=3.9.0", "3.9.2") == 1);
    /* comma lists: every clause must hold */
    CHECK(sb_marker_spec_match(">=3.8,<4", "3.12.4") == 1);
    CHECK(sb_marker_spec_match(">=3.8, <3.12", "3.12.4") == 0);
    CHECK(sb_marker_spec_match(">=2.7, !=3.0.*, !=3.1.*, !=3.2.*, !=3.3.*, !=3.4.*", "3.12.4") == 1);
    CHECK(sb_marker_spec_match(">=2.7, !=3.0.*, !=3.1.*, !=3.2.*, !=3.3.*, !=3.4.*", "3.4.10") == 0);
    CHECK(sb_marker_spec_match(" , >=3.9 ,", "3.9") == 1);   /* empty clauses are passed over */
    CHECK(sb_marker_spec_match(">=3.8.0rc1", "3.8.0") == 1); /* pre/post/local read at the release level */
    CHECK(sb_marker_spec_match(">=3.8.post1,<3.13+local", "3.12.4") == 1);
    /* unknown: no interpreter, an unreadable clause (anywhere in the list), no operator */
    CHECK(sb_marker_spec_match(">=3.8", NULL) == -1);
    CHECK(sb_marker_spec_match(">=3.8", "abc") == -1);
    CHECK(sb_marker_spec_match(">=abc", "3.12") == -1);
    CHECK(sb_marker_spec_match("<3.9, >=abc", "3.12") == -1); /* false then unknown: unknown */
    CHECK(sb_marker_spec_match(">=abc, <3.9", "3.12") == -1);
    CHECK(sb_marker_spec_match("3.8", "3.8") == -1);
    CHECK(sb_marker_spec_match("=>3.8", "3.8") == -1);
    CHECK(sb_marker_spec_match("~=3", "3.8") == -1); /* ~= needs two release segments (PEP 440) */
    CHECK(sb_marker_spec_match(">=", "3.8") == -1);  /* an operator at the very end is read, not run past */
    CHECK(sb_marker_spec_match("", "3.8") == 1);
}

/* The ceiling the python report gives per package and as its summary: the
 * highest MAJOR.MINOR a specifier allows, the lowest over its clauses. */
static int ceiling(const char *spec, int want_major, int want_minor)
{
    int major = -2, minor = -2;
    sb_marker_python_ceiling(spec, &major, &minor);
    return major == want_major && minor == want_minor;
}

TEST(marker_python_ceiling)
{
    CHECK(ceiling(">=3.8", -1, -1)); /* a floor is no ceiling */
    CHECK(ceiling(">3.8, !=3.9.*", -1, -1));
    CHECK(ceiling("<3.10", 3, 9));
    CHECK(ceiling("<3.10.0", 3, 9));
    CHECK(ceiling("<3.10.0.0", 3, 9));
    CHECK(ceiling("<3.10.2", 3, 10)); /* 3.10.0 and 3.10.1 are allowed */
    CHECK(ceiling("<4", -1, -1));     /* a major alone says nothing of the last minor */
    CHECK(ceiling("<4.0", -1, -1));
    CHECK(ceiling("<=3.11", 3, 11));
    CHECK(ceiling("<=3.11.4", 3, 11));
    CHECK(ceiling("==3.9.*", 3, 9));
    CHECK(ceiling("==3.9.1", 3, 9));
    CHECK(ceiling("===3.9.1", 3, 9));
    CHECK(ceiling("==3.*", -1, -1));
    CHECK(ceiling("~=3.8", -1, -1)); /* any 3.x from 3.8 */
    CHECK(ceiling("~=3.8.1", 3, 8)); /* 3.8.x from 3.8.1 */
    CHECK(ceiling(">=3.8,<3.13", 3, 12));
    CHECK(ceiling("<3.13, <=3.11, ==3.12.*", 3, 11)); /* the lowest of the clauses' */
    CHECK(ceiling("<=3.11, <3.11", 3, 10));
    CHECK(ceiling("<3.12, >=abc", 3, 11)); /* an unreadable clause gives none, the others still count */
    CHECK(ceiling("", -1, -1));
    CHECK(ceiling(NULL, -1, -1));

    long major = -2, minor = -2;
    CHECK(sb_marker_major_minor("3.12.4", &major, &minor) == 0 && major == 3 && minor == 12);
    CHECK(sb_marker_major_minor("3.9", &major, &minor) == 0 && major == 3 && minor == 9);
    CHECK(sb_marker_major_minor("3", &major, &minor) == -1);
    CHECK(sb_marker_major_minor(NULL, &major, &minor) == -1);
}
