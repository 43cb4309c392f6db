/*
 * test_json_stream.c - the streaming JSON tokenizer (core/json_stream.c):
 * token sequence, escapes and surrogate pairs decoded, numbers checked,
 * depth bound, truncation, skipping with member counts, re-reading at an
 * offset, errors with their line and column, and JSONC (comments, trailing
 * commas) when asked for.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/json_stream.h"

#include <string.h>

/* the token kinds of a whole text, as letters: { } [ ] k s n t f 0, E at an error, . at the end;
 * JSONC when asked */
static const char *tokens(const char *text, unsigned depth, bool jsonc, sb_jr *r)
{
    static char out[256];
    size_t k = 0;
    sb_jr_init(r, text, strlen(text), depth);
    if (jsonc)
        sb_jr_jsonc(r);
    for (;;) {
        sb_jt t = sb_jr_next(r);
        static const char letters[] = "E.{}[]ksntf0";
        out[k++] = letters[t + 1];
        if (t == SB_JT_ERROR || t == SB_JT_END || k + 1 >= sizeof out)
            break;
    }
    out[k] = '\0';
    return out;
}

static const char *kinds(const char *text, unsigned depth, sb_jr *r)
{
    return tokens(text, depth, false, r);
}

TEST(core_json_stream__tokens)
{
    sb_jr r;
    CHECK_STR(kinds("{\"a\": [1, -2.5e3, true, false, null, \"x\"], \"b\": {}}", 0, &r), "{k[nntf0s]k{}}.");
    CHECK_STR(kinds("  [ ]  \n", 0, &r), "[].");
    CHECK_STR(kinds("\"top\"", 0, &r), "s.");
    CHECK_STR(kinds("17", 0, &r), "n.");
    /* after an error the tokenizer stays failed */
    CHECK_STR(kinds("[1,]", 0, &r), "[nE");
    CHECK(sb_jr_next(&r) == SB_JT_ERROR);
}

TEST(core_json_stream__escapes_and_surrogates)
{
    sb_arena *a = sb_arena_new(0);
    const char *text =
        "[\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\", \"\\u00e9\\u20AC\", \"\\ud83d\\ude00\", \"plain\", \"caf\xc3\xa9\"]";
    sb_jr r;
    sb_jr_init(&r, text, strlen(text), 0);
    CHECK(sb_jr_next(&r) == SB_JT_ARR);
    CHECK(sb_jr_next(&r) == SB_JT_STR && r.escaped);
    CHECK_STR(sb_jr_str(&r, a), "a\"b\\c/d\b\f\n\r\t");
    CHECK(sb_jr_next(&r) == SB_JT_STR);
    CHECK_STR(sb_jr_str(&r, a), "\xc3\xa9\xe2\x82\xac");
    CHECK(sb_jr_next(&r) == SB_JT_STR);
    CHECK_STR(sb_jr_str(&r, a), "\xf0\x9f\x98\x80"); /* U+1F600 from its pair */
    CHECK(sb_jr_next(&r) == SB_JT_STR && !r.escaped && r.tlen == 5);
    CHECK(sb_jr_is(&r, "plain") && !sb_jr_is(&r, "plai") && !sb_jr_is(&r, "plainer"));
    CHECK(sb_jr_next(&r) == SB_JT_STR);
    CHECK_STR(sb_jr_str(&r, a), "caf\xc3\xa9");
    CHECK(sb_jr_next(&r) == SB_JT_ARR_END && sb_jr_next(&r) == SB_JT_END);
    /* a key spelled with escapes still matches its literal */
    const char *k = "{\"\\u0076ersion\": 1}";
    sb_jr_init(&r, k, strlen(k), 0);
    CHECK(sb_jr_next(&r) == SB_JT_OBJ && sb_jr_next(&r) == SB_JT_KEY && sb_jr_is(&r, "version"));

    static const char *const bad[] = {
        "[\"\\ud83d\"]",          /* high surrogate alone */
        "[\"\\ud83d\\u0041\"]",   /* high surrogate, then no low half */
        "[\"\\ude00\"]",          /* lone low surrogate */
        "[\"\\u0000\"]",          /* NUL cannot be a C string */
        "[\"\\x41\"]",            /* no such escape */
        "[\"\\u12G4\"]",          /* not hex */
        "[\"a\tb\"]",             /* raw control character */
        "[\"\xc3\"]",             /* truncated UTF-8 */
        "[\"\xc0\xaf\"]",         /* overlong */
        "[\"\xed\xa0\x80\"]",     /* a surrogate in UTF-8 */
        "[\"\xf4\x90\x80\x80\"]", /* past U+10FFFF */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sb_jr_init(&r, bad[i], strlen(bad[i]), 0);
        CHECK(sb_jr_next(&r) == SB_JT_ARR);
        sb_test_subcase(bad[i], sb_jr_next(&r) == SB_JT_ERROR, "a bad string must fail");
    }
    sb_arena_destroy(a);
}

TEST(core_json_stream__numbers)
{
    static const char *const good[] = {"0", "-0", "12", "-7", "1.5", "1e9", "1E+2", "2.5e-3", "9223372036854775807"};
    static const char *const bad[] = {"01", "-", "1.", ".5", "1e", "+1", "1.e3", "0x10", "--1"};
    sb_jr r;
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        sb_jr_init(&r, good[i], strlen(good[i]), 0);
        int ok = sb_jr_next(&r) == SB_JT_NUM && r.tlen == strlen(good[i]) && sb_jr_next(&r) == SB_JT_END;
        sb_test_subcase(good[i], ok, "a JSON number");
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sb_jr_init(&r, bad[i], strlen(bad[i]), 0);
        int failed = sb_jr_next(&r) == SB_JT_ERROR || sb_jr_next(&r) == SB_JT_ERROR;
        sb_test_subcase(bad[i], failed, "not a JSON number");
    }
    long long v = 0;
    const char *nums = "[3, -12, 3.0, 1e2, 99999999999999999999]";
    sb_jr_init(&r, nums, strlen(nums), 0);
    CHECK(sb_jr_next(&r) == SB_JT_ARR);
    CHECK(sb_jr_next(&r) == SB_JT_NUM && sb_jr_int(&r, &v) && v == 3);
    CHECK(sb_jr_next(&r) == SB_JT_NUM && sb_jr_int(&r, &v) && v == -12);
    CHECK(sb_jr_next(&r) == SB_JT_NUM && !r.integer && !sb_jr_int(&r, &v));
    CHECK(sb_jr_next(&r) == SB_JT_NUM && !sb_jr_int(&r, &v));
    CHECK(sb_jr_next(&r) == SB_JT_NUM && r.integer && !sb_jr_int(&r, &v)); /* does not fit */
}

TEST(core_json_stream__depth_limit)
{
    char deep[200];
    memset(deep, '[', 100);
    memset(deep + 100, ']', 100);
    sb_jr r;
    sb_jr_init(&r, deep, 200, 100);
    sb_jt t;
    while ((t = sb_jr_next(&r)) == SB_JT_ARR || t == SB_JT_ARR_END)
        ;
    CHECK(t == SB_JT_END);
    sb_jr_init(&r, deep, 200, 99);
    while ((t = sb_jr_next(&r)) == SB_JT_ARR)
        ;
    CHECK(t == SB_JT_ERROR && r.too_deep && r.errpos == 99);
    sb_err err;
    CHECK(sb_jr_error(&r, &err, "x") == SB_ELIMIT && strstr(err.msg, "deeper than 99"));
    /* a depth past the fixed bit stack is capped */
    sb_jr_init(&r, deep, 200, 100000);
    CHECK(r.max_depth == SB_JR_MAX_DEPTH);
}

TEST(core_json_stream__truncation_and_errors_with_positions)
{
    static const struct {
        const char *text;
        unsigned line, col;
        const char *msg;
    } cases[] = {
        {"", 1, 1, "end of input"},
        {"{\"a\": 1", 1, 8, "end of input"},
        {"{\"a\": \"unterminated", 1, 20, "end of input"},
        {"{\n  \"a\": 1,\n  \"b\" 2\n}", 3, 7, "':'"},
        {"{\n\"lockfileVersion\": 2,\n<<<<<<< HEAD\n", 3, 1, "key"},
        {"[1 2]", 1, 4, "','"},
        {"{} {}", 1, 4, "after the end"},
        {"[tru]", 1, 2, "literal"},
        {"{\"a\": \"x\\q\"}", 1, 9, "escape"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sb_jr r;
        sb_jr_init(&r, cases[i].text, strlen(cases[i].text), 0);
        sb_jt t;
        while ((t = sb_jr_next(&r)) != SB_JT_ERROR && t != SB_JT_END)
            ;
        sb_err err;
        int ok = t == SB_JT_ERROR && sb_jr_error(&r, &err, "test") == SB_EPARSE && err.line == cases[i].line &&
                 err.column == cases[i].col && strstr(err.msg, cases[i].msg) && !strncmp(err.msg, "test: ", 6);
        sb_test_subcase(cases[i].text, ok, "error kind and position");
    }
}

TEST(core_json_stream__skip_counts_and_offsets)
{
    const char *text =
        "{\"a\": {\"x\": [1, {\"y\": 2}], \"z\": null, \"w\": {}}, \"b\": [1, [2, 3], {}, \"s\"], \"c\": 5}";
    sb_jr r;
    sb_jr_init(&r, text, strlen(text), 0);
    size_t n = 9;
    CHECK(sb_jr_next(&r) == SB_JT_OBJ && sb_jr_next(&r) == SB_JT_KEY);
    CHECK(sb_jr_next(&r) == SB_JT_OBJ);
    size_t a_at = r.tpos;
    CHECK(sb_jr_skip(&r, &n) && n == 3);
    CHECK(sb_jr_next(&r) == SB_JT_KEY && sb_jr_is(&r, "b"));
    CHECK(sb_jr_next(&r) == SB_JT_ARR && sb_jr_skip(&r, &n) && n == 4);
    CHECK(sb_jr_next(&r) == SB_JT_KEY && sb_jr_next(&r) == SB_JT_NUM && sb_jr_skip(&r, &n) && n == 0);
    CHECK(sb_jr_next(&r) == SB_JT_OBJ_END && sb_jr_next(&r) == SB_JT_END);
    /* a second look at "a" from its recorded offset */
    sb_jr_init_at(&r, text, strlen(text), a_at, 0);
    CHECK(sb_jr_next(&r) == SB_JT_OBJ && sb_jr_next(&r) == SB_JT_KEY && sb_jr_is(&r, "x"));
    CHECK(sb_jr_next(&r) == SB_JT_ARR && sb_jr_skip(&r, &n) && n == 2);
    CHECK(sb_jr_next(&r) == SB_JT_KEY && sb_jr_is(&r, "z") && sb_jr_next(&r) == SB_JT_NULL);
    CHECK(sb_jr_next(&r) == SB_JT_KEY && sb_jr_next(&r) == SB_JT_OBJ && sb_jr_skip(&r, &n) && n == 0);
    CHECK(sb_jr_next(&r) == SB_JT_OBJ_END);
    /* skipping a broken container reports the error */
    const char *broken = "{\"a\": [1, 2}";
    sb_jr_init(&r, broken, strlen(broken), 0);
    CHECK(sb_jr_next(&r) == SB_JT_OBJ && sb_jr_next(&r) == SB_JT_KEY && sb_jr_next(&r) == SB_JT_ARR);
    CHECK(!sb_jr_skip(&r, &n));
    unsigned line, col;
    sb_jr_pos(&r, r.errpos, &line, &col);
    CHECK(line == 1 && col == 12);
}

/* the token kinds of a JSONC text (kinds' letters) */
static const char *kinds_jsonc(const char *text, sb_jr *r)
{
    return tokens(text, 0, true, r);
}

TEST(core_json_stream__jsonc_comments_and_trailing_commas)
{
    sb_jr r;
    /* comments wherever space may be, holding what would end a value */
    CHECK_STR(kinds_jsonc("// head, ]\n{ /* } */ \"a\" /*x*/ : // y\n [1, /* 2, */ 3,], \"b\": {\"c\": 1,},}\n// tail",
                          &r),
              "{k[nn]k{kn}}.");
    CHECK_STR(kinds_jsonc("{\"s\": \"// not a comment, ]\",}", &r), "{ks}.");
    /* a comma closes nothing on its own, and two are never one */
    CHECK_STR(kinds_jsonc("[,]", &r), "[E");
    CHECK_STR(kinds_jsonc("[1,,]", &r), "[nE");
    CHECK_STR(kinds_jsonc("{,}", &r), "{E");
    CHECK_STR(kinds_jsonc("[1 /* never closed ]", &r), "[nE");
    CHECK_STR(kinds_jsonc("[1, / 2]", &r), "[nE");
    /* plain JSON keeps refusing both */
    CHECK_STR(kinds("[1, /* c */ 2]", 0, &r), "[nE");
    CHECK_STR(kinds("{\"a\": 1,}", 0, &r), "{knE");
    /* positions are the text's own: the error after a comment */
    const char *text = "/* one\n two */ [1,\n  x]";
    sb_jr_init(&r, text, strlen(text), 0);
    sb_jr_jsonc(&r);
    while (sb_jr_next(&r) > SB_JT_END)
        ;
    unsigned line, col;
    sb_jr_pos(&r, r.errpos, &line, &col);
    CHECK(line == 3 && col == 3);
    /* skipping counts members, not the trailing comma */
    const char *arr = "{\"a\": [1, [2,], {},], \"b\": {\"x\": 1, \"y\": 2,}}";
    size_t n = 9;
    sb_jr_init(&r, arr, strlen(arr), 0);
    sb_jr_jsonc(&r);
    CHECK(sb_jr_next(&r) == SB_JT_OBJ && sb_jr_next(&r) == SB_JT_KEY);
    CHECK(sb_jr_next(&r) == SB_JT_ARR && sb_jr_skip(&r, &n) && n == 3);
    CHECK(sb_jr_next(&r) == SB_JT_KEY && sb_jr_next(&r) == SB_JT_OBJ && sb_jr_skip(&r, &n) && n == 2);
    CHECK(sb_jr_next(&r) == SB_JT_OBJ_END && sb_jr_next(&r) == SB_JT_END);
}
