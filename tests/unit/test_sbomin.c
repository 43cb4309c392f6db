/*
 * test_sbomin.c - SBOMs as input (core/lock_sbom.c): a document sbomd wrote
 * from a fixture, read back and written again in CycloneDX 1.6, is the same
 * bytes (given the same serial input and timestamp); SPDX 2.3 read back gives
 * the CycloneDX document of the lockfile; the model fields of hand-written
 * third-party documents; and the refusals, each with its code.
 */
#include "test.h"
#include "../../core/buf.h"
#include "../../core/doc.h"
#include "../../core/lock.h"

#include <stdlib.h>
#include <string.h>

/* the whole document of `s` in `ops`, the serial made from `in` */
static char *render(const sb_doc_ops *ops, const sb_sbom *s, const char *in, size_t inlen, size_t *outlen)
{
    sb_arena *a = sb_arena_new(0);
    sb_doc *d = NULL;
    sb_doc_opts o = {1700000000, true, in, inlen, 0, NULL, 0, NULL};
    sb_err err;
    sb_buf out = SB_BUF_INIT(0);
    char buf[4096];
    char *result = NULL;
    if (sb_doc_new(&d, a, ops, s, &o, &err) == SB_OK) {
        for (;;) {
            ssize_t n = sb_doc_produce(d, buf, sizeof buf);
            if (n <= 0) {
                if (n == 0)
                    result = out.data ? strndup(out.data, out.len) : strdup("");
                break;
            }
            sb_buf_append(&out, buf, (size_t)n);
        }
    }
    if (result)
        *outlen = out.len;
    sb_doc_free(d);
    sb_buf_free(&out);
    sb_arena_destroy(a);
    return result;
}

/* The serial number covers the input kind (doc.c make_serial), so a
 * document read back has another one: blank it before comparing. */
static void blank_serial(char *doc)
{
    char *u = doc ? strstr(doc, "\"urn:uuid:") : NULL;
    if (u && strlen(u) > 10 + 36)
        memset(u + 10, '0', 36);
}

/* read `data` (any kind) and select its default document */
static sb_sbom *model(sb_arena *a, const char *data, size_t len, const char *filename, sb_err *err)
{
    sb_lock *l = NULL;
    sb_sbom *s = NULL;
    if (sb_lock_read(&l, a, NULL, data, len, filename, NULL, err) != SB_OK)
        return NULL;
    sb_select_opts o = {.environment = l->envs[0].name};
    return sb_model_select(&s, a, l, &o, err) == SB_OK ? s : NULL;
}

TEST(sbomin_read_back_identical)
{
    /* [2]: "scopes" when the input has them: SPDX 2.3 states a scope only
     * where an edge crosses into one (*_DEPENDENCY_OF), so those read back
     * with fewer and are compared by package count only */
    static const char *const fixtures[][3] = {
        {"fixtures/pixi/pixi-examples-pypi-rev-bd4e26d/pixi.lock", "pixi.lock", ""},
        {"fixtures/uv/pydantic/uv.lock", "uv.lock", "scopes"},
        {"fixtures/npm/cyclonedx-node-npm-with-prepared/package-lock.json", "package-lock.json", "scopes"},
        {"fixtures/poetry/cyclonedx-python-tests-_data-infiles-environment-via-poetry/poetry.lock", "poetry.lock", ""},
        {"fixtures/conda-lock/conda-lock-environments/conda-lock-python-3.10.yaml", "conda-lock.yml", "scopes"},
        {"fixtures/pixi/pixi--rev-0463268/pixi.lock", "pixi.lock", ""},
    };
    for (size_t f = 0; f < sizeof fixtures / sizeof fixtures[0]; f++) {
        size_t len, n1 = 0, n2 = 0, n3 = 0, n4 = 0;
        char *in = sb_test_read(sb_test_shared(fixtures[f][0]), &len);
        if (!in) {
            sb_test_subcase(fixtures[f][0], 0, "cannot read fixture");
            continue;
        }
        sb_arena *a = sb_arena_new(0);
        sb_err err;
        sb_sbom *s = model(a, in, len, fixtures[f][1], &err);
        sb_test_subcase(fixtures[f][0], s != NULL, err.msg);
        char *cdx = s ? render(&sb_doc_cyclonedx_16, s, in, len, &n1) : NULL;
        char *spdx = s ? render(&sb_doc_spdx_23, s, in, len, &n3) : NULL;
        sb_sbom *back = cdx ? model(a, cdx, n1, NULL, &err) : NULL;
        sb_test_subcase(fixtures[f][0], back != NULL, err.msg);
        char *again = back ? render(&sb_doc_cyclonedx_16, back, in, len, &n2) : NULL;
        blank_serial(again);
        char *ref = cdx ? strdup(cdx) : NULL;
        blank_serial(ref);
        char name[300];
        snprintf(name, sizeof name, "%s: CycloneDX 1.6 read back and written again", fixtures[f][0]);
        sb_test_subcase(name, again && ref && n1 == n2 && !memcmp(ref, again, n1), "bytes differ");
        if (back)
            sb_test_subcase(name, back->npkgs == s->npkgs && !strcmp(back->input_kind, "cyclonedx"),
                            "package count or input kind");
        /* SPDX 2.3 loses nothing CycloneDX holds but the development scope (uv, npm) */
        sb_sbom *back2 = spdx ? model(a, spdx, n3, NULL, &err) : NULL;
        sb_test_subcase(fixtures[f][0], back2 != NULL, err.msg);
        char *from_spdx = back2 ? render(&sb_doc_cyclonedx_16, back2, in, len, &n4) : NULL;
        blank_serial(from_spdx);
        snprintf(name, sizeof name, "%s: SPDX 2.3 read back, written as CycloneDX 1.6", fixtures[f][0]);
        if (fixtures[f][2][0])
            sb_test_subcase(name, back2 && back2->npkgs == s->npkgs, "package count");
        else
            sb_test_subcase(name, from_spdx && ref && n1 == n4 && !memcmp(ref, from_spdx, n1), "bytes differ");
        free(cdx);
        free(ref);
        free(again);
        free(spdx);
        free(from_spdx);
        sb_arena_destroy(a);
        free(in);
    }
}

static const sb_pkg *find(const sb_sbom *s, const char *name)
{
    for (size_t i = 0; i < s->npkgs; i++)
        if (!strcmp(s->pkgs[i].name, name))
            return &s->pkgs[i];
    return NULL;
}

TEST(sbomin_third_party_cyclonedx)
{
    static const char doc[] =
        "{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.5\",\n"
        " \"metadata\": {\"component\": {\"bom-ref\": \"app\", \"name\": \"shop\", \"version\": \"2\"}},\n"
        " \"components\": [\n"
        "  {\"bom-ref\": \"c\", \"name\": \"numpy\", \"version\": \"1.26.4\",\n"
        "   \"purl\": \"pkg:conda/numpy@1.26.4?channel=conda-forge&subdir=linux-64\",\n"
        "   \"hashes\": [{\"alg\": \"MD5\", \"content\": \"0123456789ABCDEF0123456789abcdef\"}, {\"alg\": \"BLAKE3\", \"content\": \"x\"}],\n"
        "   \"licenses\": [{\"license\": {\"id\": \"BSD-3-Clause\"}}, {\"expression\": \"MIT OR Apache-2.0\"}]},\n"
        "  {\"bom-ref\": \"p\", \"name\": \"Requests\", \"version\": \"2.0\", \"purl\": \"pkg:pypi/requests@2.0\",\n"
        "   \"properties\": [{\"name\": \"other:x\", \"value\": \"1\"}, {\"name\": \"pixi:license-violation\", \"value\": \"old\"}]},\n"
        "  {\"bom-ref\": \"n\", \"name\": \"left-pad\", \"version\": \"1.3.0\", \"purl\": \"pkg:npm/left-pad@1.3.0\"},\n"
        "  {\"name\": \"orphan\"}],\n"
        " \"dependencies\": [{\"ref\": \"app\", \"dependsOn\": [\"p\"]}, {\"ref\": \"p\", \"dependsOn\": [\"c\", \"nowhere\"]}]}\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = model(a, doc, sizeof doc - 1, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        sb_arena_destroy(a);
        return;
    }
    CHECK(s->npkgs == 4);
    CHECK_STR(s->root_name, "shop");
    CHECK_STR(s->platform, "none");
    const sb_pkg *c = find(s, "numpy"), *p = find(s, "Requests"), *n = find(s, "left-pad"), *o = find(s, "orphan");
    CHECK(c && p && n && o);
    if (c && p && n && o) {
        CHECK(c->kind == SB_KIND_CONDA && p->kind == SB_KIND_PYPI && n->kind == SB_KIND_NPM && o->kind == SB_KIND_EXTERNAL);
        CHECK_STR(c->purl, "pkg:conda/numpy@1.26.4?channel=conda-forge&subdir=linux-64");
        CHECK_STR(sb_pkg_xr(c)->md5, "0123456789abcdef0123456789abcdef");
        CHECK_STR(c->license, "BSD-3-Clause AND (MIT OR Apache-2.0)");
        CHECK_STR(o->purl, "pkg:generic/orphan");
        CHECK(p->ndeps == 1 && s->pkgs[p->deps[0]].name == c->name); /* the unknown ref dropped */
        CHECK(s->nroot >= 1 && &s->pkgs[s->root_deps[0]] != c);
        int violation = 0, other = 0;
        for (uint32_t k = 0; k < p->nprops; k++) {
            violation |= !strcmp(p->props[k].name, "pixi:license-violation");
            other |= !strcmp(p->props[k].name, "other:x");
        }
        CHECK(!violation && !other);
    }
    sb_arena_destroy(a);
}

TEST(sbomin_refusals)
{
    static const struct {
        const char *doc;
        sb_code code;
    } cases[] = {
        {"{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"components\": [", SB_EPARSE},
        {"{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.3\"}", SB_EUNSUPPORTED},
        {"{\"bomFormat\": \"CycloneDX\"}", SB_EPARSE},
        {"{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"components\": {}}", SB_EPARSE},
        {"{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"components\": [1]}", SB_EPARSE},
        {"{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"components\": [{\"name\": \"a\", \"purl\": \"x\"}]}",
         SB_EPARSE},
        {"{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"components\": [{\"name\": \"a\", \"bom-ref\": \"r\"},"
         " {\"name\": \"b\", \"bom-ref\": \"r\"}]}", SB_EPARSE},
        {"{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"bomFormat\": \"CycloneDX\"}", SB_EPARSE},
        {"{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"components\": [{\"name\": \"a\", \"hashes\":"
         " [{\"alg\": \"SHA-1\", \"content\": \"abc\"}]}]}", SB_EPARSE},
        {"{\"spdxVersion\": \"SPDX-3.0\"}", SB_EUNSUPPORTED},
        {"{\"spdxVersion\": \"SPDX-2.3\", \"packages\": [{\"SPDXID\": \"SPDXRef-a\"}]}", SB_EPARSE},
        {"{\"spdxVersion\": \"SPDX-2.3\", \"relationships\": 3}", SB_EPARSE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_arena *a = sb_arena_new(0);
        sb_err err;
        sb_lock *l = NULL;
        sb_code rc = sb_lock_read(&l, a, NULL, cases[i].doc, strlen(cases[i].doc), NULL, NULL, &err);
        char name[96];
        snprintf(name, sizeof name, "refusal %zu: code %d, want %d", i, (int)rc, (int)cases[i].code);
        sb_test_subcase(name, rc == cases[i].code, err.msg);
        sb_arena_destroy(a);
    }
    /* more components than the limit, nested deeper than the limit */
    sb_limits lim = SB_LIMITS_DEFAULT;
    lim.max_packages = 2;
    lim.max_depth = 3;
    static const char many[] = "{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"components\":"
                               " [{\"name\": \"a\"}, {\"name\": \"b\"}, {\"name\": \"c\"}]}";
    static const char deep[] = "{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"components\":"
                               " [{\"name\": \"a\", \"components\": [{\"name\": \"b\", \"components\": [{\"name\": \"c\","
                               " \"components\": [{\"name\": \"d\"}]}]}]}]}";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    CHECK(sb_lock_read(&l, a, NULL, many, sizeof many - 1, NULL, &lim, &err) == SB_ELIMIT);
    lim.max_packages = 100;
    CHECK(sb_lock_read(&l, a, NULL, deep, sizeof deep - 1, NULL, &lim, &err) == SB_ELIMIT);
    sb_arena_destroy(a);
}
