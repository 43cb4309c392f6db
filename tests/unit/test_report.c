/*
 * test_report.c - the reports against the spec's golden texts (section
 * 10.1 tree, 10.2 licenses, built from the spec's sample model by hand),
 * the python ceilings of 10.3, table alignment with non-ASCII and long names,
 * JSON that parses with the documented keys, for any buffer size; every CSV
 * header equal to its JSON row's keys; the license-not-known line.
 */
#include "test.h"
#include "../../core/report.h"
#include "../../core/table.h"

#include <jansson.h>
#include <stdlib.h>

static char *run(const sb_doc_ops *ops, const sb_sbom *s, size_t bufsize)
{
    sb_arena *a = sb_arena_new(0);
    sb_doc_opts o = {0};
    sb_doc *d = NULL;
    sb_err err;
    sb_err_clear(&err);
    char *out = NULL;
    size_t n = 0;
    if (sb_doc_new(&d, a, ops, s, &o, &err) == SB_OK) {
        char *buf = malloc(bufsize);
        for (;;) {
            ssize_t k = sb_doc_produce(d, buf, bufsize);
            if (k <= 0)
                break;
            out = realloc(out, n + (size_t)k + 1);
            memcpy(out + n, buf, (size_t)k);
            n += (size_t)k;
        }
        free(buf);
        sb_doc_free(d);
    }
    if (out)
        out[n] = '\0';
    sb_arena_destroy(a);
    return out;
}

static sb_licfile files[2] = {{"LICENSE", "/nonexistent", -1}, {"NOTICE", "/nonexistent", -1}};

/* the out-of-line fields of a package with 0, 1 or 2 of those files */
static sb_pkgx with_files[3] = {{.build_number = -1, .size = -1},
                                {.build_number = -1, .size = -1, .licfiles = files, .nlicfiles = 1},
                                {.build_number = -1, .size = -1, .licfiles = files, .nlicfiles = 2}};

static sb_pkg pkg(sb_kind k, const char *name, const char *version, const char *license, size_t nfiles)
{
    sb_pkg p = {.kind = k,
                .name = name,
                .version = version,
                .license = license,
                .x = nfiles ? &with_files[nfiles] : NULL,
                .purl = "pkg:generic/x"};
    return p;
}

TEST(report_golden_tree)
{
    /* spec 10.1: root -> mylib, other, six; mylib -> zlib -> libzlib; other -> zlib */
    sb_pkg p[5] = {pkg(SB_KIND_CONDA, "libzlib", "1.3.1", "Zlib", 1),
                   pkg(SB_KIND_CONDA, "zlib", "1.3.1", "MIT OR Apache-2.0", 2),
                   pkg(SB_KIND_CONDA_SOURCE, "mylib", NULL, "Proprietary", 1),
                   pkg(SB_KIND_CONDA_SOURCE, "other", "0.2.0", "MIT", 0), pkg(SB_KIND_PYPI, "six", "1.17.0", NULL, 0)};
    size_t zlib_deps[] = {0}, mylib_deps[] = {1}, other_deps[] = {1}, roots[] = {2, 3, 4};
    p[1].deps = zlib_deps, p[1].ndeps = 1;
    p[2].deps = mylib_deps, p[2].ndeps = 1;
    p[3].deps = other_deps, p[3].ndeps = 1;
    sb_sbom s = {.root_name = "workspace",
                 .environment = "default",
                 .platform = "linux-64",
                 .pkgs = p,
                 .npkgs = 5,
                 .root_deps = roots,
                 .nroot = 3};
    char *t = run(sb_report_find("tree", SB_REPORT_TEXT), &s, 7);
    static const char want_tree[] =
        "Package          Version  Kind          License\n"
        "---------------------------------------------------------\n"
        "mylib            -        conda-source  Proprietary\n"
        "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 zlib         1.3.1    conda         MIT OR Apache-2.0\n"
        "    \xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 libzlib  1.3.1    conda         Zlib\n"
        "other            0.2.0    conda-source  MIT\n"
        "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 zlib (*)     1.3.1    conda         MIT OR Apache-2.0\n"
        "six              1.17.0   pypi          -\n";
    CHECK_STR(t, want_tree);
    free(t);
    char *j = run(sb_report_find("tree", SB_REPORT_JSON), &s, 1);
    json_t *doc = j ? json_loads(j, 0, NULL) : NULL;
    CHECK(doc != NULL);
    json_t *rows = json_object_get(doc, "tree");
    CHECK(json_array_size(rows) == 6);
    CHECK_STR(json_string_value(json_object_get(json_array_get(rows, 4), "name")), "zlib");
    CHECK(json_is_true(json_object_get(json_array_get(rows, 4), "repeat")));
    CHECK_STR(json_string_value(json_object_get(json_array_get(rows, 2), "parent")), "zlib");
    CHECK(json_integer_value(json_object_get(json_array_get(rows, 2), "depth")) == 2);
    CHECK(json_is_null(json_object_get(json_array_get(rows, 0), "parent")));
    json_decref(doc);
    free(j);
}

TEST(report_golden_licenses)
{
    sb_pkg p[4] = {pkg(SB_KIND_CONDA, "libzlib", "1.3.1", "Zlib", 1),
                   pkg(SB_KIND_CONDA, "zlib", "1.3.1", "MIT OR Apache-2.0", 2),
                   pkg(SB_KIND_CONDA_SOURCE, "mylib", NULL, "Proprietary", 1),
                   pkg(SB_KIND_PYPI, "six", "1.17.0", NULL, 0)};
    sb_sbom s = {.root_name = "workspace", .environment = "default", .platform = "linux-64", .pkgs = p, .npkgs = 4};
    char *t = run(sb_report_find("licenses", SB_REPORT_TEXT), &s, 4096);
    static const char want_licenses[] =
        "Name     Version  Kind          License            Family  Source    Files\n"
        "-------  -------  ------------  -----------------  ------  --------  -----\n"
        "libzlib  1.3.1    conda         Zlib               -       lockfile  1\n"
        "zlib     1.3.1    conda         MIT OR Apache-2.0  -       lockfile  2\n"
        "mylib    -        conda-source  Proprietary        -       lockfile  1\n"
        "six      1.17.0   pypi          -                  -       -         0\n"
        "\n"
        "Summary: 4 packages, 3 distinct licenses\n"
        "License            Packages\n"
        "-----------------  --------\n"
        "MIT OR Apache-2.0  1\n"
        "Proprietary        1\n"
        "Zlib               1\n"
        "\n"
        "No license (1): six\n"
        "Not an SPDX expression (1): mylib (unknown term: 'Proprietary')\n";
    CHECK_STR(t, want_licenses);
    free(t);
    for (size_t bs = 1; bs <= 65536; bs *= 16) {
        char *j = run(sb_report_find("licenses", SB_REPORT_JSON), &s, bs);
        json_t *doc = j ? json_loads(j, 0, NULL) : NULL;
        CHECK(doc != NULL);
        json_t *sum = json_object_get(doc, "summary");
        CHECK(json_array_size(json_object_get(doc, "licenses")) == 4);
        CHECK(json_integer_value(json_object_get(sum, "distinct_licenses")) == 3);
        CHECK_STR(json_string_value(json_object_get(json_array_get(json_object_get(sum, "by_license"), 0), "license")),
                  "MIT OR Apache-2.0");
        CHECK_STR(json_string_value(json_array_get(json_object_get(sum, "no_license"), 0)), "six");
        CHECK_STR(json_string_value(json_object_get(json_array_get(json_object_get(sum, "not_spdx"), 0), "reason")),
                  "unknown term: 'Proprietary'");
        CHECK(json_is_false(json_object_get(json_array_get(json_object_get(doc, "licenses"), 2), "spdx")));
        json_decref(doc);
        free(j);
    }
}

TEST(report_python_ceilings)
{
    sb_pkg p[6] = {pkg(SB_KIND_CONDA, "python", "3.12.4", NULL, 0), pkg(SB_KIND_PYPI, "bounded", "1", NULL, 0),
                   pkg(SB_KIND_PYPI, "exact", "1", NULL, 0),        pkg(SB_KIND_PYPI, "major", "1", NULL, 0),
                   pkg(SB_KIND_PYPI, "silent", "1", NULL, 0),       pkg(SB_KIND_PYPI, "tooold", "1", NULL, 0)};
    p[1].requires_python = ">=3.8,<3.13";
    p[2].requires_python = "==3.10.*";
    p[3].requires_python = ">=3.7, <4";
    p[5].requires_python = "<=3.11";
    sb_sbom s = {.root_name = "w", .environment = "default", .platform = "linux-64", .pkgs = p, .npkgs = 6};
    char *t = run(sb_report_find("python", SB_REPORT_TEXT), &s, 4096);
    CHECK(t && strstr(t, "exact    1        ==3.10.*         no         3.10\n"));
    CHECK(t && strstr(t, "tooold   1        <=3.11           no         3.11\n"));
    CHECK(t && strstr(t, "bounded  1        >=3.8,<3.13      yes        3.12\n"));
    CHECK(t && strstr(t, "major    1        >=3.7, <4        yes        -\n"));
    CHECK(t && strstr(t, "Summary: interpreter 3.12, highest Python these packages allow: 3.10\n"));
    CHECK(t && strstr(t, "Holding the ceiling (1): exact ==3.10.*\n"));
    CHECK(t && strstr(t, "Not satisfied by this interpreter (2): exact ==3.10.*, tooold <=3.11\n"));
    CHECK(t && strstr(t, "Saying nothing about Python: 1\n"));
    /* lowest ceiling first, no ceiling last */
    CHECK(t && strstr(t, "exact") < strstr(t, "tooold") && strstr(t, "tooold") < strstr(t, "bounded") &&
          strstr(t, "bounded") < strstr(t, "major"));
    free(t);
}

TEST(report_alignment_non_ascii_and_long)
{
    char longname[301];
    memset(longname, 'n', 300);
    longname[300] = '\0';
    sb_pkg p[3] = {pkg(SB_KIND_CONDA,
                       "p\xc3\xa2t\xc3\xa9-\xc3\xbcnic\xc3\xb8"
                       "de",
                       "1", "MIT", 0),
                   pkg(SB_KIND_CONDA, longname, "2", "MIT", 0), pkg(SB_KIND_CONDA, "bad\nname\x01", "3", "MIT", 0)};
    sb_sbom s = {.root_name = "w", .environment = "default", .platform = "linux-64", .pkgs = p, .npkgs = 3};
    char *t = run(sb_report_find("licenses", SB_REPORT_TEXT), &s, 13);
    CHECK(t != NULL);
    CHECK(t && !strchr(t, '\x01') && strstr(t, "bad?name?")); /* control characters shown as '?' */
    /* every table line puts the Version column at the same display column */
    size_t col = (size_t)-1, lines = 0;
    for (char *line = t; t && line && *line && lines < 5; lines++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *v = lines == 0 ? strstr(line, "Version") : lines == 1 ? NULL : strstr(line, "  ") + 2;
        while (v && *v == ' ')
            v++;
        if (v) {
            char save = *v;
            *v = '\0';
            size_t w = sb_table_width(line);
            *v = save;
            if (col == (size_t)-1)
                col = w;
            CHECK(w == col);
        }
        line = nl ? nl + 1 : NULL;
    }
    CHECK(col == 302); /* the 300-column name plus the two-space gap */
    free(t);
    CHECK(sb_table_width("p\xc3\xa2t\xc3\xa9") == 4);
}

static const char *row_of(sb_buf *b, sb_table_out out, const char *const *cells, size_t n, const size_t *w)
{
    b->len = 0;
    if (sb_table_row(b, out, cells, n, w) != SB_OK || sb_buf_append(b, "", 1) != SB_OK)
        return NULL;
    return b->data;
}

TEST(core_table__text_markdown_csv_rows)
{
    sb_buf b = SB_BUF_INIT(1 << 16);
    const char *cells[] = {"a|b", "x\ny", NULL, "MIT OR Apache-2.0"};
    size_t w[] = {5, 4, 2, 0};
    CHECK_STR(row_of(&b, SB_TABLE_TEXT, cells, 4, w), "a|b    x?y       MIT OR Apache-2.0\n");
    CHECK_STR(row_of(&b, SB_TABLE_MARKDOWN, cells, 4, NULL), "| `a\\|b` | x y |  | MIT OR Apache-2.0 |\n");
    CHECK_STR(row_of(&b, SB_TABLE_CSV, cells, 4, NULL), "a|b,\"x\ny\",,MIT OR Apache-2.0\r\n");
    /* RFC 4180 quoting, and never a spreadsheet formula */
    const char *q[] = {"say \"hi\"", "a,b", "=HYPERLINK(\"x\")", "-1", "@SUM(A1)", "+1", "plain"};
    CHECK_STR(row_of(&b, SB_TABLE_CSV, q, 7, NULL),
              "\"say \"\"hi\"\"\",\"a,b\",\"'=HYPERLINK(\"\"x\"\")\",\"'-1\",\"'@SUM(A1)\",\"'+1\",plain\r\n");
    /* the text tables' "-" (nothing here) is an empty CSV cell, not a quoted '- */
    const char *dash[] = {"jinja2", "-", "--", "high"};
    CHECK_STR(row_of(&b, SB_TABLE_CSV, dash, 4, NULL), "jinja2,,\"'--\",high\r\n");
    b.len = 0;
    CHECK(sb_table_rule(&b, SB_TABLE_MARKDOWN, 3, NULL) == SB_OK && b.len == 14 &&
          !memcmp(b.data, "|---|---|---|\n", 14));
    b.len = 0;
    CHECK(sb_table_rule(&b, SB_TABLE_TEXT, 2, w) == SB_OK && b.len == 12 && !memcmp(b.data, "-----  ----\n", 12));
    b.len = 0;
    CHECK(sb_table_rule(&b, SB_TABLE_CSV, 2, w) == SB_OK && b.len == 0);
    CHECK(sb_table_width("p\xc3\xa2t\xc3\xa9") == 4 && sb_table_width(NULL) == 0);
    sb_buf_free(&b);
}

static const char *md_of(sb_buf *b, const char *s, int in_table)
{
    b->len = 0;
    if (sb_table_md(b, s, in_table) != SB_OK || sb_buf_append(b, "", 1) != SB_OK)
        return NULL;
    return b->data;
}

TEST(core_table__markdown_text_is_never_markup)
{
    sb_buf b = SB_BUF_INIT(1 << 16);
    /* ordinary names, versions and expressions stay as they are */
    CHECK_STR(md_of(&b, "typing_extensions", 1), "typing_extensions");
    CHECK_STR(md_of(&b, "MIT OR (Apache-2.0 WITH LLVM-exception)", 1), "MIT OR (Apache-2.0 WITH LLVM-exception)");
    CHECK_STR(md_of(&b, "1.2.3+local.4", 1), "1.2.3+local.4");
    CHECK_STR(md_of(&b, "p\xc3\xa2t\xc3\xa9 a\tb", 1), "p\xc3\xa2t\xc3\xa9 a b");
    /* everything else is a code span: tags, links, mentions, issue numbers */
    CHECK_STR(md_of(&b, "<img src=x onerror=alert(1)>", 1), "`<img src=x onerror=alert(1)>`");
    CHECK_STR(md_of(&b, "[x](javascript:alert(1))", 1), "`[x](javascript:alert(1))`");
    CHECK_STR(md_of(&b, "@scope/name", 1), "`@scope/name`");
    CHECK_STR(md_of(&b, "#123", 0), "`#123`");
    CHECK_STR(md_of(&b, "_x_", 1), "`_x_`");
    CHECK_STR(md_of(&b, "www.example.com", 1), "`www.example.com`");
    CHECK_STR(md_of(&b, "a:b", 1), "`a:b`");
    /* a `|` splits a table row even inside a span; outside a table it is text */
    CHECK_STR(md_of(&b, "a|b", 1), "`a\\|b`");
    CHECK_STR(md_of(&b, "a\\|b", 1), "`a\\\\|b`");
    CHECK_STR(md_of(&b, "a|b", 0), "`a|b`");
    /* the fence outgrows the text's backticks; an edge backtick or space is padded */
    CHECK_STR(md_of(&b, "a`b", 1), "``a`b``");
    CHECK_STR(md_of(&b, "`x``", 1), "``` `x`` ```");
    CHECK_STR(md_of(&b, " @a", 1), "`  @a `");
    CHECK_STR(md_of(&b, "<a>\r\n", 1), "` <a>   `");
    CHECK_STR(md_of(&b, "", 1), "");
    sb_buf_free(&b);
}

TEST(core_table__csv_formula_guard)
{
    sb_buf b = SB_BUF_INIT(1 << 16);
    /* after leading whitespace, which spreadsheets trim, and TAB / CR first */
    const char *f[] = {" =1+1", "\t=1", "\r@x", "\n-2", "  +3", "\tplain"};
    CHECK_STR(row_of(&b, SB_TABLE_CSV, f, 6, NULL),
              "\"' =1+1\",\"'\t=1\",\"'\r@x\",\"'\n-2\",\"'  +3\",\"'\tplain\"\r\n");
    /* `;`: the field separator of some locales, so quoted like `,` */
    const char *semi[] = {"a;=HYPERLINK(1)", "a;b", "a b"};
    CHECK_STR(row_of(&b, SB_TABLE_CSV, semi, 3, NULL), "\"a;=HYPERLINK(1)\",\"a;b\",a b\r\n");
    sb_buf_free(&b);
}

/* One row convention (openapi/reports.schema.json): every report's CSV
 * header is its JSON row's keys in the same order, environment and platform
 * first, for any buffer size; a row has every key. */
TEST(report_csv_header_is_json_row_keys)
{
    sb_pkg p[3] = {pkg(SB_KIND_CONDA, "python", "3.12.4", "Python-2.0", 0),
                   pkg(SB_KIND_CONDA_SOURCE, "mylib", NULL, "Proprietary", 1),
                   pkg(SB_KIND_PYPI, "six", "1.17.0", NULL, 0)};
    p[2].requires_python = ">=3.8";
    size_t root[1] = {0};
    sb_sbom s = {.root_name = "w",
                 .environment = "default",
                 .platform = "linux-64",
                 .pkgs = p,
                 .npkgs = 3,
                 .root_deps = root,
                 .nroot = 1};
    static const char *const kinds[] = {"packages", "licenses", "python", "tree", "quality", NULL};
    for (int k = 0; kinds[k]; k++) {
        for (size_t bs = 1; bs <= 4096; bs *= 64) {
            char *j = run(sb_report_find(kinds[k], SB_REPORT_JSON), &s, bs);
            char *c = run(sb_report_find(kinds[k], SB_REPORT_CSV), &s, bs);
            json_t *doc = j ? json_loads(j, 0, NULL) : NULL;
            json_t *row = json_array_get(json_object_get(doc, kinds[k]), 0);
            CHECK(row != NULL && c != NULL);
            if (row && c) {
                char keys[512] = "";
                const char *key;
                json_t *v;
                json_object_foreach(row, key, v) {
                    (void)v;
                    strncat(keys, keys[0] ? "," : "", sizeof keys - strlen(keys) - 1);
                    strncat(keys, key, sizeof keys - strlen(keys) - 1);
                }
                strncat(keys, "\r\n", sizeof keys - strlen(keys) - 1);
                CHECK(!strncmp(keys, "environment,platform,", 21));
                CHECK(!strncmp(c, keys, strlen(keys)));
                CHECK_STR(json_string_value(json_object_get(row, "environment")), "default");
                CHECK(json_is_array(json_object_get(json_object_get(doc, "summary"), "incomplete")));
            }
            json_decref(doc);
            free(j);
            free(c);
        }
    }
}

/* A license not known (the lockfile does not record it, not looked up) is
 * not "no license": the packages and tree text say so, in the page's words. */
TEST(report_text_license_not_known)
{
    sb_pkg p[2] = {pkg(SB_KIND_CONDA, "python", "3.12.4", "Python-2.0", 0),
                   pkg(SB_KIND_PYPI, "six", "1.17.0", NULL, 0)};
    p[1].lookup = SB_LOOKUP_UNASKED;
    size_t root[2] = {0, 1};
    sb_sbom s = {.root_name = "w",
                 .environment = "default",
                 .platform = "linux-64",
                 .pkgs = p,
                 .npkgs = 2,
                 .root_deps = root,
                 .nroot = 2};
    static const char want[] =
        "License not known (1): six - the lockfile does not record it: fetch-licenses=true "
        "looks it up\n";
    static const char *const kinds[] = {"packages", "licenses", "tree", NULL};
    for (int k = 0; kinds[k]; k++) {
        char *t = run(sb_report_find(kinds[k], SB_REPORT_TEXT), &s, 4096);
        char *m = run(sb_report_find(kinds[k], SB_REPORT_MARKDOWN), &s, 4096);
        CHECK(t && strstr(t, want));
        CHECK(m && strstr(m, "### License not known (1): six - "));
        free(t);
        free(m);
    }
    p[1].lookup = SB_LOOKUP_NONE; /* stated as absent: no such line */
    char *t = run(sb_report_find("tree", SB_REPORT_TEXT), &s, 4096);
    CHECK(t && !strstr(t, "License not known"));
    free(t);
}

/* A chain 200 deep: text and Markdown draw 64 levels and say how many
 * packages' dependencies they left out; JSON lists every row. */
TEST(report_tree__deep_chain_drawn_to_a_bound)
{
    enum { N = 200 };
    static sb_pkg p[N];
    static size_t deps[N];
    static char names[N][8];
    size_t roots[] = {0};
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "c%zu", i);
        p[i] = pkg(SB_KIND_NPM, names[i], "1.0.0", "MIT", 0);
        deps[i] = i + 1;
        if (i + 1 < N)
            p[i].deps = &deps[i], p[i].ndeps = 1;
    }
    sb_sbom s = {.root_name = "r",
                 .environment = "default",
                 .platform = "linux-64",
                 .pkgs = p,
                 .npkgs = N,
                 .root_deps = roots,
                 .nroot = 1};
    char *t = run(sb_report_find("tree", SB_REPORT_TEXT), &s, 4096);
    CHECK(t != NULL);
    CHECK(t && strstr(t, " c63 ") != NULL);
    CHECK(t && strstr(t, " c64 ") == NULL);
    CHECK(t && strstr(t, "Drawn to 64 levels: the dependencies of 1 packages at the last level are left out") != NULL);
    /* the widest row is 64 levels of drawing, not 200 */
    size_t widest = 0;
    for (const char *l = t; l && *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        widest = n > widest ? n : widest;
        l = e ? e + 1 : l + n;
    }
    CHECK(widest < 64 * 4 * 3 + 100);
    free(t);
    char *m = run(sb_report_find("tree", SB_REPORT_MARKDOWN), &s, 4096);
    CHECK(m && strstr(m, "c63") != NULL && strstr(m, "c64") == NULL);
    CHECK(m && strstr(m, "### Drawn to 64 levels") != NULL);
    /* a row's first cell: an em space per level above it, then the branch */
    CHECK(m && strstr(m, "| \xe2\x80\x83\xe2\x94\x94\xe2\x94\x80 c2 |") != NULL);
    free(m);
    char *j = run(sb_report_find("tree", SB_REPORT_JSON), &s, 4096);
    json_t *doc = j ? json_loads(j, 0, NULL) : NULL;
    CHECK(json_array_size(json_object_get(doc, "tree")) == N);
    CHECK(json_integer_value(json_object_get(json_array_get(json_object_get(doc, "tree"), N - 1), "depth")) == N - 1);
    json_decref(doc);
    free(j);
}
