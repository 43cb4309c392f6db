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
    CHECK(eval("linux-aarch64", "3.12", "(platform_machine == 'AMD64' and sys_platform == 'linux') or (platform_machine == 'x86_64' and sys_platform == 'linux')") == 0);
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
