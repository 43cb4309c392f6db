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
#include "yaml_compare.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

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
        {"spaces after nested", "a:\n  b:\n    c: 1\n   ", 1},
        {"spaces after indentless", "a:\n- b: 1\n  c: 2\n ", 1},
        {"comment without break", "a:\n  b: 1\n    # x", 1},
        {"nested, no final break", "a:\n  b:\n    c: 1", 1},
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
        /* libyaml fails on the next line before it gives the entry's scalar
         * (its simple-key lookahead): the entry's line is not given either */
        {"lookahead error", "a:\n- b: 1\n- c #x\nd.e/\n    f:\n", 0},
        {"bad line after value", "a: 1\nb\n  c:\n", 0},
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
    static const char text[] =
        "version: 6\nenvironments:\n  default:\n    packages:\n      linux-64:\n"
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
            char w[200];
            if (!compare(text, len, starts[a], starts[b], ref, rl, &fa, w, sizeof w) && !bad++)
                snprintf(why, sizeof why, "gap %zu..%zu: %s", starts[a], starts[b], w);
            n++;
            free(ref);
        }
    char label[100];
    snprintf(label, sizeof label, "yaml_fast: %d gaps", n);
    sb_test_subcase(label, bad == 0, why);
}
