/*
 * test_yaml_fast.c - core/yaml_fast.c against libyaml itself: for every YAML
 * fixture under ../shared/fixtures, hand-made inputs at the subset's edges,
 * and the same inputs with a gap (a range read as its line breaks, as the
 * pixi reader's pieces are), the stream a reader sees (fast events, then
 * libyaml's from the hand-over on) must equal libyaml's event for event:
 * type, marks, scalar values, lengths and styles, collection styles, implicit
 * flags, and the error (with its mark) where libyaml fails. Each input is one
 * case. The pixi.lock fixtures must be read to their end by the fast path
 * (else it would not pay).
 */
#include "test.h"
#include "../../core/yaml_fast.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

typedef struct stream {
    yaml_parser_t p;
    sb_yf f;
    int fast, lib;
    size_t given;
    const char *in;
    size_t len;
} stream;

/* One event of the reader's stream: 1 event, 0 libyaml's error, -1 other. */
static int next(stream *s, yaml_event_t *ev, int *was_fast)
{
    *was_fast = 0;
    if (s->fast) {
        int r = sb_yf_next(&s->f, ev);
        if (r == SB_YF_EVENT) {
            s->given++;
            *was_fast = 1;
            return 1;
        }
        if (r != SB_YF_OTHER)
            return -1;
        s->fast = 0;
        for (size_t i = 0; i < s->given; i++) {
            yaml_event_t skip;
            if (!yaml_parser_parse(&s->p, &skip))
                return 0;
            yaml_event_delete(&skip);
        }
    }
    return yaml_parser_parse(&s->p, ev) ? 1 : 0;
}

static int same_event(const yaml_event_t *a, const yaml_event_t *b, char *why, size_t cap)
{
    if (a->type != b->type) {
        snprintf(why, cap, "type %d vs %d", a->type, b->type);
        return 0;
    }
    if (a->start_mark.line != b->start_mark.line || a->start_mark.column != b->start_mark.column ||
        a->start_mark.index != b->start_mark.index) {
        snprintf(why, cap, "type %d at %zu:%zu (%zu) vs %zu:%zu (%zu)", a->type, a->start_mark.line + 1,
                 a->start_mark.column + 1, a->start_mark.index, b->start_mark.line + 1, b->start_mark.column + 1,
                 b->start_mark.index);
        return 0;
    }
    switch (a->type) {
    case YAML_SCALAR_EVENT:
        if (a->data.scalar.length != b->data.scalar.length ||
            memcmp(a->data.scalar.value, b->data.scalar.value, a->data.scalar.length) ||
            a->data.scalar.value[a->data.scalar.length] != '\0' || a->data.scalar.style != b->data.scalar.style ||
            a->data.scalar.plain_implicit != b->data.scalar.plain_implicit ||
            a->data.scalar.quoted_implicit != b->data.scalar.quoted_implicit ||
            !a->data.scalar.anchor != !b->data.scalar.anchor || !a->data.scalar.tag != !b->data.scalar.tag) {
            snprintf(why, cap, "scalar at %zu:%zu '%.60s' style %d vs '%.60s' style %d", b->start_mark.line + 1,
                     b->start_mark.column + 1, (const char *)a->data.scalar.value, a->data.scalar.style,
                     (const char *)b->data.scalar.value, b->data.scalar.style);
            return 0;
        }
        break;
    case YAML_SEQUENCE_START_EVENT:
        if (a->data.sequence_start.style != b->data.sequence_start.style ||
            a->data.sequence_start.implicit != b->data.sequence_start.implicit) {
            snprintf(why, cap, "sequence style at %zu", b->start_mark.line + 1);
            return 0;
        }
        break;
    case YAML_MAPPING_START_EVENT:
        if (a->data.mapping_start.style != b->data.mapping_start.style ||
            a->data.mapping_start.implicit != b->data.mapping_start.implicit) {
            snprintf(why, cap, "mapping style at %zu", b->start_mark.line + 1);
            return 0;
        }
        break;
    case YAML_DOCUMENT_START_EVENT:
    case YAML_DOCUMENT_END_EVENT:
        if (a->data.document_start.implicit != b->data.document_start.implicit) {
            snprintf(why, cap, "document implicit at %zu", b->start_mark.line + 1);
            return 0;
        }
        break;
    default: break;
    }
    return 1;
}

/* Compare the reader's stream over data (data[from..to) a gap when from <
 * to) with libyaml's over `ref` (the bytes libyaml reads). *fast_all: the
 * fast path gave every event. */
static int compare(const char *data, size_t len, size_t from, size_t to, const char *ref, size_t ref_len,
                   int *fast_all, char *why, size_t cap)
{
    stream s = {0};
    yaml_parser_t lib;
    yaml_parser_initialize(&lib);
    yaml_parser_set_input_string(&lib, (const unsigned char *)ref, ref_len);
    yaml_parser_initialize(&s.p);
    yaml_parser_set_input_string(&s.p, (const unsigned char *)ref, ref_len);
    s.fast = sb_yf_init(&s.f, data, len, from, to);
    *fast_all = s.fast;
    int ok = 1;
    why[0] = '\0';
    for (size_t k = 0; ok && k < 10000000; k++) {
        yaml_event_t a, b;
        int fast = 0;
        int ra = next(&s, &a, &fast);
        int rb = yaml_parser_parse(&lib, &b);
        if (!fast)
            *fast_all = 0;
        if (ra < 0) {
            snprintf(why, cap, "fast path out of memory");
            ok = 0;
            break;
        }
        if (ra != rb) {
            snprintf(why, cap, "event %zu: one stream failed, the other did not", k);
            ok = 0;
        } else if (ra == 0) {
            if (s.p.problem_mark.line != lib.problem_mark.line || s.p.problem_offset != lib.problem_offset) {
                snprintf(why, cap, "different errors");
                ok = 0;
            }
            break;
        } else {
            ok = same_event(&a, &b, why, cap);
            int end = b.type == YAML_STREAM_END_EVENT;
            if (!fast)
                yaml_event_delete(&a);
            yaml_event_delete(&b);
            if (end)
                break;
        }
    }
    sb_yf_free(&s.f);
    yaml_parser_delete(&s.p);
    yaml_parser_delete(&lib);
    return ok;
}

/* The bytes libyaml reads for data with data[from..to) as its line breaks. */
static char *gapped(const char *data, size_t len, size_t from, size_t to, size_t *out)
{
    char *b = malloc(len + 1);
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (i < from || i >= to || data[i] == '\n')
            b[n++] = data[i];
    *out = n;
    return b;
}

static int check_one(const char *name, const char *data, size_t len, int must_be_fast)
{
    char why[300];
    int fast_all = 0;
    int ok = compare(data, len, 0, 0, data, len, &fast_all, why, sizeof why);
    if (ok && must_be_fast && !fast_all) {
        ok = 0;
        snprintf(why, sizeof why, "handed over to libyaml");
    }
    /* a gap over the middle third, from a line's start to a line's start */
    if (ok && len > 64) {
        const char *a = memchr(data + len / 3, '\n', len - len / 3);
        const char *b = a ? memchr(data + 2 * len / 3, '\n', len - 2 * len / 3) : NULL;
        if (a && b && a < b) {
            size_t from = (size_t)(a - data) + 1, to = (size_t)(b - data) + 1, rl;
            char *ref = gapped(data, len, from, to, &rl);
            int fa;
            ok = compare(data, len, from, to, ref, rl, &fa, why, sizeof why);
            free(ref);
        }
    }
    char label[400];
    snprintf(label, sizeof label, "yaml_fast %s", name);
    sb_test_subcase(label, ok, ok ? NULL : why);
    return ok;
}

static int yaml_name(const char *n)
{
    size_t l = strlen(n);
    return !strcmp(n, "pixi.lock") || (l > 5 && !strcmp(n + l - 5, ".yaml")) || (l > 4 && !strcmp(n + l - 4, ".yml"));
}

static void walk(const char *dir, int *files, int *fast_pixi)
{
    DIR *d = opendir(dir);
    if (NULL == d)
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            walk(path, files, fast_pixi);
            continue;
        }
        if (!yaml_name(de->d_name))
            continue;
        size_t len;
        char *data = sb_test_read(path, &len);
        if (NULL == data)
            continue;
        int pixi = !strcmp(de->d_name, "pixi.lock");
        check_one(path + strlen(sb_test_shared("fixtures")) - strlen("fixtures"), data, len, 0);
        if (pixi) {
            int fa;
            char why[300];
            if (compare(data, len, 0, 0, data, len, &fa, why, sizeof why) && fa)
                (*fast_pixi)++;
        }
        (*files)++;
        free(data);
    }
    closedir(d);
}

TEST(yaml_fast_fixtures)
{
    int files = 0, fast_pixi = 0;
    walk(sb_test_shared("fixtures"), &files, &fast_pixi);
    CHECK(files > 100);
    /* the fast path must take (nearly) every pixi.lock to pay at all */
    char label[100];
    snprintf(label, sizeof label, "yaml_fast: %d pixi.lock fixtures read to the end without libyaml", fast_pixi);
    printf("  %s\n", label);
    sb_test_subcase(label, fast_pixi >= 100, "too few pixi.lock read by the fast path");
}

TEST(yaml_fast_edges)
{
    static const struct {
        const char *name, *text;
        int fast; /* the fast path must read it to its end */
    } cases[] = {
        {"map", "a: 1\nb: two words\n", 1},
        {"no final break", "a: 1\nb: 2", 1},
        {"nested", "a:\n  b: 1\n  c:\n    d: x\ne: y\n", 1},
        {"indentless", "a:\n- 1\n- 2\nb: 3\n", 1},
        {"indentless at end", "a:\n- 1\n- 2\n", 1},
        {"block seq", "a:\n  - 1\n  - 2\nb: 3\n", 1},
        {"compact maps", "p:\n- conda: u\n  sha: 1\n- pypi: v\n  x:\n  - 1\n  y: 2\n", 1},
        {"empty values", "a:\nb:\nc: 1\nd:\n", 1},
        {"empty value then nested", "a:\n  b:\nc:\n", 1},
        {"comments", "# top\na: 1 # one\n  # indented\nb: 'x' # two\n\n", 1},
        {"key comment", "a: # c\n  b: 1\n", 1},
        {"quoted", "'a b': \"c: d\"\nx: 'it''s'\ny: ''\nz: \"\"\n", 1},
        {"flow empty", "a: []\nb: {}\nc:\n- []\n- {}\nd: [] # x\n", 1},
        {"plain chars", "u: https://x.org/a?b=c#d\nv: a,b[c]{d}\nw: -1\nx: :y\nz: ?z\n", 1},
        {"trailing spaces", "a: b   \nc:   \n", 1},
        {"root seq", "- a\n- b: c\n  d: e\n", 1},
        {"deeper entries", "a:\n    - b: 1\n      c: 2\n    - 3\n", 1},
        {"nulls", "a: ~\nb: null\nc: Null\n", 1},
        {"spaces then colon", "a : 1\n'b'  : 2\n", 1},
        {"blank lines", "\n\na: 1\n\n\nb: 2\n\n", 1},
        {"only spaces after", "a: 1\n   ", 1},
        /* handed over to libyaml, which must agree on what it read */
        {"multi-line plain", "a: one\n  two\nb: 3\n", 0},
        {"multi-line quoted", "a: 'one\n  two'\n", 0},
        {"block scalar", "a: |\n  text\nb: 1\n", 0},
        {"flow content", "a: [1, 2]\nb: {c: d}\n", 0},
        {"anchor", "a: &x 1\nb: *x\n", 0},
        {"tag", "a: !!str 1\n", 0},
        {"document markers", "---\na: 1\n...\n", 0},
        {"two documents", "a: 1\n---\nb: 2\n", 0},
        {"directive", "%YAML 1.1\n---\na: 1\n", 0},
        {"tab", "a:\t1\n", 0},
        {"crlf", "a: 1\r\nb: 2\r\n", 0},
        {"utf-8", "a: caf\xc3\xa9\nb: 1\n", 0},
        {"bad utf-8", "a: 1\nb: \xff\n", 0},
        {"escape", "a: \"x\\ty\"\n", 0},
        {"explicit key", "? a\n: 1\n", 0},
        {"entry alone", "-\n  a: 1\n", 0},
        {"nested entries", "- - a\n  - b\n", 0},
        {"scalar root", "just text\n", 0},
        {"empty", "", 0},
        {"comments only", "# x\n", 0},
        {"value with colon", "a: b: c\n", 0},
        {"bad indent", "a:\n    b: 1\n  c: 2\n", 0},
        {"seq then key", "a:\n  - 1\n  b: 2\n", 0},
        {"key in seq", "- a\nb: 1\n", 0},
        {"less indented root", "  a: 1\nb: 2\n", 0},
        {"text after quote", "a: 'b' c\n", 0},
        {"unclosed quote", "a: 'b\n", 0},
        {"long key", NULL, 0},
        {"nul", "a: 1\n\0b: 2\n", 0},
        {"deep", NULL, 0},
        {"indicator starts", "a: @x\n", 0},
        {"comment glued to quote", "a: 'x'#y\n", 0},
        {"colon glued", "a:b\n", 0},
        {"flow glued", "a: []x\n", 0},
        {"quoted key multiline", "'a\nb': 1\n", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *t = cases[i].text;
        size_t len;
        char *own = NULL;
        if (!strcmp(cases[i].name, "long key")) {
            own = malloc(3000);
            memset(own, 'k', 2000);
            memcpy(own + 2000, ": 1\n", 5);
            t = own;
            len = strlen(own);
        } else if (!strcmp(cases[i].name, "deep")) {
            own = malloc(200 * 210);
            size_t n = 0;
            for (int d = 0; d < 200; d++) {
                memset(own + n, ' ', (size_t)d * 1);
                n += (size_t)d;
                memcpy(own + n, "k:\n", 3);
                n += 3;
            }
            own[n] = '\0';
            t = own;
            len = n;
        } else if (!strcmp(cases[i].name, "nul"))
            len = 11;
        else
            len = strlen(t);
        char name[100];
        snprintf(name, sizeof name, "edge: %s", cases[i].name);
        check_one(name, t, len, cases[i].fast);
        free(own);
    }
}

/* Every way to cut a small lockfile-shaped input into a gap: from each line
 * start to each later line start. */
TEST(yaml_fast_gaps)
{
    static const char text[] = "version: 6\nenvironments:\n  default:\n    packages:\n      linux-64:\n"
                               "      - conda: a\n      - pypi: b\npackages:\n- conda: a\n  sha256: 'x'\n"
                               "  depends:\n  - b >=1\n  purls: []\n- pypi: b\n  requires_dist:\n  - c\n";
    size_t len = sizeof text - 1, starts[64], ns = 0;
    starts[ns++] = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n')
            starts[ns++] = i + 1;
    int bad = 0, n = 0;
    char why[300] = "";
    for (size_t a = 0; a < ns; a++)
        for (size_t b = a + 1; b < ns; b++) {
            size_t rl;
            char *ref = gapped(text, len, starts[a], starts[b], &rl);
            int fa;
            char w[300];
            if (!compare(text, len, starts[a], starts[b], ref, rl, &fa, w, sizeof w) && !bad++)
                snprintf(why, sizeof why, "gap %zu..%zu: %s", starts[a], starts[b], w);
            n++;
            free(ref);
        }
    char label[100];
    snprintf(label, sizeof label, "yaml_fast: %d gaps", n);
    sb_test_subcase(label, bad == 0, why);
}
