/* test_jsonw.c - the streaming JSON emitter: punctuation, escaping, misuse. */
#include "test.h"
#include "../../core/buf.h"
#include "../../core/jsonw.h"

#include <stdlib.h>

static int to_buf(void *payload, const char *p, size_t n)
{
    return sb_buf_append(payload, p, n) == SB_OK ? 0 : -1;
}

static int refuse(void *payload, const char *p, size_t n)
{
    (void)payload;
    (void)p;
    (void)n;
    return 1;
}

TEST(core_jsonw__pretty_like_serde)
{
    sb_buf b = SB_BUF_INIT(0);
    sb_jw jw;
    sb_jw_init(&jw, (sb_sink){to_buf, &b}, true);
    sb_jw_obj_begin(&jw);
    sb_jw_kstr(&jw, "a", "x");
    sb_jw_key(&jw, "b");
    sb_jw_arr_begin(&jw);
    sb_jw_int(&jw, 1);
    sb_jw_int(&jw, -22);
    sb_jw_arr_end(&jw);
    sb_jw_key(&jw, "c");
    sb_jw_obj_begin(&jw);
    sb_jw_obj_end(&jw);
    sb_jw_key(&jw, "d");
    sb_jw_arr_begin(&jw);
    sb_jw_arr_end(&jw);
    sb_jw_key(&jw, "e");
    sb_jw_bool(&jw, true);
    sb_jw_key(&jw, "f");
    sb_jw_null(&jw);
    sb_jw_obj_end(&jw);
    CHECK(sb_jw_done(&jw));
    CHECK_STR(b.data,
              "{\n  \"a\": \"x\",\n  \"b\": [\n    1,\n    -22\n  ],\n  \"c\": {},\n  \"d\": [],\n"
              "  \"e\": true,\n  \"f\": null\n}\n");
    sb_buf_free(&b);
}

TEST(core_jsonw__compact)
{
    sb_buf b = SB_BUF_INIT(0);
    sb_jw jw;
    sb_jw_init(&jw, (sb_sink){to_buf, &b}, false);
    sb_jw_arr_begin(&jw);
    sb_jw_str(&jw, "a");
    sb_jw_obj_begin(&jw);
    sb_jw_kstr(&jw, "k", "v");
    sb_jw_obj_end(&jw);
    sb_jw_arr_end(&jw);
    CHECK_STR(b.data, "[\"a\",{\"k\":\"v\"}]");
    sb_buf_free(&b);
}

TEST(core_jsonw__escaping_and_utf8)
{
    sb_buf b = SB_BUF_INIT(0);
    sb_jw jw;
    sb_jw_init(&jw, (sb_sink){to_buf, &b}, false);
    sb_jw_arr_begin(&jw);
    sb_jw_str(&jw, "q\"b\\n\n\t\x01 \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    sb_jw_str(&jw, "bad \xff lead \xc3 cut \xed\xa0\x80 surrogate");
    sb_jw_arr_end(&jw);
    CHECK_STR(b.data,
              "[\"q\\\"b\\\\n\\n\\t\\u0001 \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\","
              "\"bad \xef\xbf\xbd lead \xef\xbf\xbd cut \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd surrogate\"]");
    sb_buf_free(&b);
}

TEST(core_jsonw__chunked_string_keeps_split_utf8)
{
    const char *text =
        "a\xe2\x82\xac"
        "b\xf0\x9f\x98\x80"
        "c\"";
    size_t n = strlen(text);
    for (size_t step = 1; step <= n; step++) {
        sb_buf b = SB_BUF_INIT(0);
        sb_jw jw;
        sb_jw_init(&jw, (sb_sink){to_buf, &b}, false);
        sb_jw_str_begin(&jw);
        for (size_t i = 0; i < n; i += step)
            sb_jw_str_chunk(&jw, text + i, i + step <= n ? step : n - i);
        sb_jw_str_end(&jw);
        CHECK_STR(b.data,
                  "\"a\xe2\x82\xac"
                  "b\xf0\x9f\x98\x80"
                  "c\\\"\"");
        sb_buf_free(&b);
    }
}

TEST(core_jsonw__misuse_is_a_status)
{
    sb_buf b = SB_BUF_INIT(0);
    sb_jw jw;
    sb_jw_init(&jw, (sb_sink){to_buf, &b}, false);
    sb_jw_obj_begin(&jw);
    CHECK(sb_jw_str(&jw, "value without key") == SB_EMISUSE);
    CHECK(sb_jw_obj_end(&jw) == SB_EMISUSE); /* sticky */
    sb_buf_free(&b);

    sb_jw_init(&jw, (sb_sink){to_buf, &b}, false);
    sb_jw_arr_begin(&jw);
    CHECK(sb_jw_obj_end(&jw) == SB_EMISUSE);
    sb_buf_free(&b);

    sb_jw_init(&jw, (sb_sink){to_buf, &b}, false);
    for (int i = 0; i < SB_JW_MAX_DEPTH; i++)
        sb_jw_arr_begin(&jw);
    CHECK(jw.status == SB_OK);
    CHECK(sb_jw_arr_begin(&jw) == SB_EMISUSE);
    sb_buf_free(&b);

    sb_jw_init(&jw, (sb_sink){refuse, NULL}, false);
    CHECK(sb_jw_str(&jw, "x") == SB_EIO);
}

TEST(core_jsonw__long_strings_every_control_char)
{
    /* 1 MiB of mixed text: control characters, quotes, multi-byte UTF-8 */
    size_t n = 1 << 20;
    char *in = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        in[i] = i % 7 == 0 ? (char)((i / 7) % 32) : "ab\"\\cd"[i % 6];
    for (size_t i = 0; i < n; i++)
        if (in[i] == 0)
            in[i] = 'z';
    in[n] = '\0';
    sb_buf b = SB_BUF_INIT(0);
    sb_jw jw;
    sb_jw_init(&jw, (sb_sink){to_buf, &b}, false);
    CHECK(sb_jw_str(&jw, in) == SB_OK);
    /* decode our own escapes back and compare */
    size_t o = 0, bad = 0;
    for (size_t i = 1; i + 1 < b.len; i++) {
        char c = b.data[i];
        if (c == '\\') {
            char e = b.data[++i];
            if (e == 'u') {
                unsigned v = 0;
                for (int k = 0; k < 4; k++) {
                    char h = b.data[++i];
                    v = v * 16 + (unsigned)(h <= '9' ? h - '0' : h - 'a' + 10);
                }
                c = (char)v;
            } else {
                c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
            }
        } else if ((unsigned char)c < 0x20) {
            bad++;
        }
        if (o < n && in[o] != c)
            bad++;
        o++;
    }
    CHECK(o == n);
    CHECK(bad == 0);
    sb_buf_free(&b);
    free(in);
}

/* the word-at-a-time skip must find every byte that needs work, wherever it
 * sits in an 8-byte word: each special byte at each offset of a 24-byte run,
 * through the buffer path and the sink path, against a byte-by-byte rule */
TEST(core_jsonw__escape_at_every_offset)
{
    static const unsigned char specials[] = {'"', '\\', 0x00, 0x01, 0x1f, '\n', 0x7f, 0x20, 0xc3, 0xff};
    for (size_t k = 0; k < sizeof specials; k++) {
        for (size_t at = 0; at < 24; at++) {
            char in[32];
            memset(in, 'a', 24);
            in[at] = (char)specials[k];
            if (specials[k] == 0xc3 && at + 1 < 24)
                in[at + 1] = (char)0xa9; /* a valid "é" */
            char want[64];
            size_t w = 0;
            for (size_t i = 0; i < 24; i++) {
                unsigned char c = (unsigned char)in[i];
                if (c == 0xc3 && i + 1 < 24) {
                    want[w++] = (char)c;
                    want[w++] = in[++i];
                } else if (c >= 0x80) {
                    memcpy(want + w, "\xEF\xBF\xBD", 3);
                    w += 3;
                } else if (c == '"' || c == '\\') {
                    want[w++] = '\\';
                    want[w++] = (char)c;
                } else if (c == '\n') {
                    memcpy(want + w, "\\n", 2);
                    w += 2;
                } else if (c < 0x20) {
                    w += (size_t)snprintf(want + w, 7, "\\u%04x", c);
                } else {
                    want[w++] = (char)c;
                }
            }
            sb_buf b = SB_BUF_INIT(0), direct = SB_BUF_INIT(0);
            CHECK(sb_jw_escape_to((sb_sink){to_buf, &b}, in, 24, NULL, NULL, true) == 0);
            sb_jw jw;
            sb_jw_init_buf(&jw, &direct, false);
            sb_jw_strn(&jw, in, 24);
            int ok = b.len == w && !memcmp(b.data, want, w) && direct.len == w + 2 && !memcmp(direct.data + 1, want, w);
            if (!ok)
                printf("  special 0x%02x at %zu: got '%s'\n", specials[k], at, b.data);
            CHECK(ok);
            sb_buf_free(&b);
            sb_buf_free(&direct);
        }
    }
}
