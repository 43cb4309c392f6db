/*
 * test_sbomin.c - SBOMs as input (core/lock_cyclonedx.c, lock_spdx.c,
 * lock_spdx3.c and what they share, lock_sbom.c): a document sbomd wrote
 * from a fixture, read back and written again in CycloneDX 1.6, is the same
 * bytes (given the same serial input and timestamp); SPDX 2.3 read back gives
 * the CycloneDX document of the lockfile; SPDX 3.0.1 read back is the same
 * SPDX 3.0.1 bytes but for the input kind and the CycloneDX document but
 * for the scopes; the model fields of hand-written third-party documents; and the refusals, each with its code.
 * An sbomd document read back in its own format is its source byte for
 * byte, serial included, whatever the request's clock says; a change (a
 * field, timestamp=, compact output) gives another serial; stated gaps come
 * back as stated (sb_incomplete_restore).
 */
#include "test.h"
#include "../../core/buf.h"
#include "../../core/doc.h"
#include "../../core/lock.h"
#include "../../core/lock_merge.h"
#include "../../core/select.h"

#include <stdlib.h>
#include <string.h>

/* the whole document of `s` in `ops` with the options `o` */
static char *render_o(const sb_doc_ops *ops, const sb_sbom *s, sb_doc_opts o, size_t *outlen)
{
    sb_arena *a = sb_arena_new(0);
    sb_doc *d = NULL;
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

/* the whole document of `s` in `ops`, the serial made from `in` */
static char *render(const sb_doc_ops *ops, const sb_sbom *s, const char *in, size_t inlen, size_t *outlen)
{
    sb_doc_opts o = {.timestamp = 1700000000, .pretty = true, .input = in, .input_len = inlen};
    return render_o(ops, s, o, outlen);
}

/* The serial number covers the input kind (doc.c make_serial), so a
 * document read back has another one: blank it before comparing. */
static void blank_serial(char *doc)
{
    char *u = doc ? strstr(doc, "\"urn:uuid:") : NULL;
    if (u && strlen(u) > 10 + 36)
        memset(u + 10, '0', 36);
}

/* A CycloneDX document converted from another one names its source in
 * metadata.properties (pixi:source-document): that property object taken
 * out in place (with the comma that joins it to its neighbours), *n
 * updated, so the rest compares with the document made directly. */
static void unsource(char *doc, size_t *n)
{
    char *at = doc ? strstr(doc, "\"name\": \"pixi:source-document\"") : NULL;
    if (NULL == at)
        return;
    char *open = at, *close = strchr(at, '}');
    while (open > doc && *open != '{')
        open--;
    if (NULL == close)
        return;
    char *from = open, *to = close + 1;
    if (*to == ',') { /* not the last: up to the next property's '{' */
        to++;
        while (*to && *to != '{')
            to++;
    } else { /* the last: from the comma after the one before it */
        while (from > doc && *from != ',')
            from--;
    }
    memmove(from, to, strlen(to) + 1);
    *n -= (size_t)(to - from);
}

/* read `data` (any kind) and select its default document */
static sb_sbom *model(sb_arena *a, const char *data, size_t len, const char *filename, sb_err *err)
{
    sb_lock *l = NULL;
    sb_sbom *s = NULL;
    if (sb_lock_read(&l, a, NULL, data, len, filename, NULL, err) != SB_OK)
        return NULL;
    sb_select_opts o = {.environment = l->envs[0].name};
    return sb_select(&s, a, l, &o, err) == SB_OK ? s : NULL;
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
        unsource(from_spdx, &n4);
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
        CHECK(c->kind == SB_KIND_CONDA && p->kind == SB_KIND_PYPI && n->kind == SB_KIND_NPM &&
              o->kind == SB_KIND_EXTERNAL);
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

/* Every UUID in a document zeroed: an SPDX 3 document's namespace (in each
 * spdxId) holds its serial, which covers the input kind. */
static void blank_uuids(char *doc)
{
    static const char shape[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
    for (char *p = doc; p && *p; p++) {
        size_t k = 0;
        while (k < 36 && p[k] &&
               (shape[k] == '-' ? p[k] == '-' : ((p[k] >= '0' && p[k] <= '9') || (p[k] >= 'a' && p[k] <= 'f'))))
            k++;
        if (k == 36) {
            for (k = 0; k < 36; k++)
                if (p[k] != '-')
                    p[k] = '0';
            p += 35;
        }
    }
}

/* The lines of `doc` but those holding one of `drop` (NULL-ended). */
static char *drop_lines(const char *doc, const char *const *drop)
{
    char *out = malloc(strlen(doc) + 1);
    size_t o = 0;
    for (const char *s = doc; out && *s;) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s + 1) : strlen(s);
        char line[160];
        snprintf(line, sizeof line, "%.*s", (int)(n < 159 ? n : 159), s);
        int keep = 1;
        for (size_t k = 0; keep && drop[k]; k++)
            keep = NULL == strstr(line, drop[k]);
        if (keep) {
            memcpy(out + o, s, n);
            o += n;
        }
        s += n;
    }
    if (out)
        out[o] = '\0';
    return out;
}

/* What names the input kind (the CreationInfo comment and the root's source
 * info: "pixi workspace" there, "spdx workspace" once read back) and
 * pixi:incomplete-detail, whose count of lookups not made differs for a
 * license the lockfile states as "None" (written as none, read back as one
 * a lookup would ask for). */
static const char *const input_kind_lines[] = {"\"Generated from the lockfile ", " workspace; lockfile ",
                                               "pixi:incomplete-detail=", NULL};
/* CycloneDX component scopes (required / optional), which SPDX 3 does not hold */
static const char *const scope_lines[] = {"\"scope\": ", NULL};

/* SPDX 3.0.1: sbomd's document read back and written again as SPDX 3.0.1 is
 * the same bytes but for the input kind (a second round is the same bytes
 * exactly); written as CycloneDX 1.6 it is the lockfile's CycloneDX document
 * but for the component scopes (required / optional), which SPDX 3 does not
 * hold: it states only edges into a development group ("scopes" fixtures). */
TEST(sbomin_spdx3_read_back)
{
    static const char *const fixtures[][3] = {
        {"fixtures/pixi/pixi-examples-pypi-rev-bd4e26d/pixi.lock", "pixi.lock", ""},
        {"fixtures/uv/pydantic/uv.lock", "uv.lock", "scopes"},
        {"fixtures/npm/cyclonedx-node-npm-with-prepared/package-lock.json", "package-lock.json", "scopes"},
        {"fixtures/poetry/cyclonedx-python-tests-_data-infiles-environment-via-poetry/poetry.lock", "poetry.lock", ""},
        {"fixtures/conda-lock/conda-lock-environments/conda-lock-python-3.10.yaml", "conda-lock.yml", "scopes"},
        {"fixtures/explicit/ESMValCore--rev-9450033/conda-linux-64.lock", "conda-linux-64.lock", ""},
        {"fixtures/pixi/pixi--rev-0463268/pixi.lock", "pixi.lock", ""},
    };
    for (size_t f = 0; f < sizeof fixtures / sizeof fixtures[0]; f++) {
        size_t len, n1 = 0, n2 = 0, n3 = 0, n4 = 0, n5 = 0;
        char *in = sb_test_read(sb_test_shared(fixtures[f][0]), &len);
        if (!in) {
            sb_test_subcase(fixtures[f][0], 0, "cannot read fixture");
            continue;
        }
        sb_arena *a = sb_arena_new(0);
        sb_err err;
        char name[300];
        sb_sbom *s = model(a, in, len, fixtures[f][1], &err);
        sb_test_subcase(fixtures[f][0], s != NULL, err.msg);
        char *ref = s ? render(&sb_doc_spdx_301, s, in, len, &n1) : NULL;
        sb_sbom *back = ref ? model(a, ref, n1, NULL, &err) : NULL;
        snprintf(name, sizeof name, "%s: SPDX 3.0.1 read back", fixtures[f][0]);
        sb_test_subcase(name, back != NULL && back->npkgs == s->npkgs && !strcmp(back->input_kind, "spdx"),
                        back ? "package count or input kind" : err.msg);
        char *again = back ? render(&sb_doc_spdx_301, back, in, len, &n2) : NULL;
        sb_sbom *back2 = again ? model(a, again, n2, NULL, &err) : NULL;
        char *third = back2 ? render(&sb_doc_spdx_301, back2, in, len, &n3) : NULL;
        snprintf(name, sizeof name, "%s: SPDX 3.0.1 read back twice: the same bytes", fixtures[f][0]);
        sb_test_subcase(name, again && third && n2 == n3 && !memcmp(again, third, n2), "bytes differ");
        blank_uuids(ref);
        blank_uuids(again);
        char *r1 = ref ? drop_lines(ref, input_kind_lines) : NULL,
             *r2 = again ? drop_lines(again, input_kind_lines) : NULL;
        snprintf(name, sizeof name, "%s: SPDX 3.0.1 read back and written again", fixtures[f][0]);
        sb_test_subcase(name, r1 && r2 && !strcmp(r1, r2), "bytes differ beyond the input kind");
        char *cdx = s ? render(&sb_doc_cyclonedx_16, s, in, len, &n4) : NULL;
        char *from3 = back ? render(&sb_doc_cyclonedx_16, back, in, len, &n5) : NULL;
        blank_serial(cdx);
        blank_serial(from3);
        unsource(from3, &n5);
        snprintf(name, sizeof name, "%s: SPDX 3.0.1 read back, written as CycloneDX 1.6", fixtures[f][0]);
        if (fixtures[f][2][0]) {
            char *c1 = cdx ? drop_lines(cdx, scope_lines) : NULL, *c2 = from3 ? drop_lines(from3, scope_lines) : NULL;
            sb_test_subcase(name, c1 && c2 && !strcmp(c1, c2), "bytes differ beyond the component scopes");
            free(c1);
            free(c2);
        } else {
            sb_test_subcase(name, cdx && from3 && n4 == n5 && !memcmp(cdx, from3, n4), "bytes differ");
        }
        free(ref);
        free(again);
        free(third);
        free(r1);
        free(r2);
        free(cdx);
        free(from3);
        sb_arena_destroy(a);
        free(in);
    }
}

/* A hand-written SPDX 3.0.1 document of another tool: no pixi:* comments,
 * purls as externalIdentifier only, a concluded license, an Sbom rooted at
 * a package, a development-scoped edge, an unknown element in `to`. */
TEST(sbomin_third_party_spdx3)
{
    static const char doc[] =
        "{\"@context\": \"https://spdx.org/rdf/3.0.1/spdx-context.jsonld\", \"@graph\": [\n"
        " {\"@id\": \"_:ci\", \"type\": \"CreationInfo\", \"specVersion\": \"3.0.1\", \"created\": \"2024-01-01T00:00:00Z\"},\n"
        " {\"type\": \"software_Package\", \"spdxId\": \"urn:x#app\", \"name\": \"shop\", \"software_packageVersion\": \"2\"},\n"
        " {\"type\": \"Organization\", \"spdxId\": \"urn:x#acme\", \"name\": \"ACME\"},\n"
        " {\"type\": \"software_Package\", \"spdxId\": \"urn:x#a\", \"name\": \"requests\", \"software_packageVersion\": \"2.0\",\n"
        "  \"externalIdentifier\": [{\"type\": \"ExternalIdentifier\", \"externalIdentifierType\": \"packageUrl\", \"identifier\": \"pkg:pypi/requests@2.0\"}],\n"
        "  \"verifiedUsing\": [{\"type\": \"Hash\", \"algorithm\": \"sha256\", \"hashValue\": \"58CD2187C01E70E6E26505BCA751777AA9F2EE0B7F4300988B709F44E013003F\"}]},\n"
        " {\"type\": \"software_Package\", \"spdxId\": \"urn:x#b\", \"name\": \"lib\", \"software_packageVersion\": \"1\", \"suppliedBy\": \"urn:x#acme\"},\n"
        " {\"type\": \"software_Package\", \"spdxId\": \"urn:x#t\", \"name\": \"pytest\", \"software_packageUrl\": \"pkg:pypi/pytest@8.0\", \"software_packageVersion\": \"8.0\"},\n"
        " {\"type\": \"simplelicensing_LicenseExpression\", \"spdxId\": \"urn:x#l1\", \"simplelicensing_licenseExpression\": \"Apache-2.0\"},\n"
        " {\"type\": \"simplelicensing_LicenseExpression\", \"spdxId\": \"urn:x#l2\", \"simplelicensing_licenseExpression\": \"MIT\"},\n"
        " {\"type\": \"Relationship\", \"spdxId\": \"urn:x#r1\", \"from\": \"urn:x#a\", \"relationshipType\": \"hasConcludedLicense\", \"to\": [\"urn:x#l2\"]},\n"
        " {\"type\": \"Relationship\", \"spdxId\": \"urn:x#r2\", \"from\": \"urn:x#a\", \"relationshipType\": \"hasDeclaredLicense\", \"to\": [\"urn:x#l1\"]},\n"
        " {\"type\": \"Relationship\", \"spdxId\": \"urn:x#r3\", \"from\": \"urn:x#b\", \"relationshipType\": \"hasConcludedLicense\", \"to\": [\"urn:x#l2\"]},\n"
        " {\"type\": \"Relationship\", \"spdxId\": \"urn:x#r4\", \"from\": \"urn:x#app\", \"relationshipType\": \"dependsOn\", \"to\": [\"urn:x#a\"]},\n"
        " {\"type\": \"Relationship\", \"spdxId\": \"urn:x#r5\", \"from\": \"urn:x#a\", \"relationshipType\": \"dependsOn\", \"to\": [\"urn:x#b\", \"urn:elsewhere#z\"]},\n"
        " {\"type\": \"LifecycleScopedRelationship\", \"spdxId\": \"urn:x#r6\", \"from\": \"urn:x#app\", \"relationshipType\": \"dependsOn\", \"to\": [\"urn:x#t\"], \"scope\": \"development\"},\n"
        " {\"type\": \"software_Sbom\", \"spdxId\": \"urn:x#sbom\", \"rootElement\": [\"urn:x#app\"], \"element\": [\"urn:x#app\"]}\n"
        "]}\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = model(a, doc, sizeof doc - 1, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        sb_arena_destroy(a);
        return;
    }
    CHECK(s->npkgs == 3);
    CHECK_STR(s->root_name, "shop");
    CHECK_STR(s->root_version, "2");
    CHECK_STR(s->input_kind, "spdx");
    const sb_pkg *r = find(s, "requests"), *l = find(s, "lib"), *t = find(s, "pytest");
    CHECK(r && l && t);
    if (r && l && t) {
        CHECK(r->kind == SB_KIND_PYPI && l->kind == SB_KIND_EXTERNAL && t->kind == SB_KIND_PYPI);
        CHECK_STR(r->purl, "pkg:pypi/requests@2.0");
        CHECK_STR(l->purl, "pkg:generic/lib@1");
        CHECK_STR(r->license, "Apache-2.0"); /* declared wins over concluded */
        CHECK_STR(l->license, "MIT");        /* concluded when nothing is declared */
        CHECK_STR(r->sha256, "58cd2187c01e70e6e26505bca751777aa9f2ee0b7f4300988b709f44e013003f");
        CHECK_STR(l->supplier_name, "ACME");
        CHECK(r->ndeps == 1 && s->pkgs[r->deps[0]].name == l->name); /* the unknown element dropped */
        CHECK(t->scope == SB_SCOPE_DEVELOPMENT);
        CHECK(s->nroot == 2);
    }
    sb_arena_destroy(a);
}

static const char *prop_of(const sb_pkg *p, const char *name)
{
    for (uint32_t k = 0; k < p->nprops; k++)
        if (!strcmp(p->props[k].name, name))
            return p->props[k].value;
    return NULL;
}

/* Merging (core/lock_merge.c): one package per purl, its parts named, the
 * disagreements listed, gaps filled, edges united, the roots. */
TEST(sbomin_merge)
{
    static const char a_doc[] =
        "{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"metadata\": {\"component\": {\"bom-ref\": \"r\", \"name\": \"app\"}},\n"
        " \"components\": [\n"
        "  {\"bom-ref\": \"a1\", \"name\": \"requests\", \"version\": \"2.0\", \"purl\": \"pkg:pypi/requests@2.0\",\n"
        "   \"licenses\": [{\"license\": {\"id\": \"Apache-2.0\"}}]},\n"
        "  {\"bom-ref\": \"a2\", \"name\": \"urllib3\", \"version\": \"2.2\", \"purl\": \"pkg:pypi/urllib3@2.2\"},\n"
        "  {\"bom-ref\": \"a3\", \"name\": \"tool\", \"version\": \"1\"}],\n"
        " \"dependencies\": [{\"ref\": \"r\", \"dependsOn\": [\"a1\"]}, {\"ref\": \"a1\", \"dependsOn\": [\"a2\"]}]}\n";
    static const char b_doc[] =
        "{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.5\", \"metadata\": {\"component\": {\"bom-ref\": \"x\", \"name\": \"app\"}},\n"
        " \"components\": [\n"
        "  {\"bom-ref\": \"b1\", \"name\": \"requests\", \"version\": \"2.0\", \"purl\": \"pkg:pypi/requests@2.0\",\n"
        "   \"licenses\": [{\"license\": {\"id\": \"MIT\"}}]},\n"
        "  {\"bom-ref\": \"b2\", \"name\": \"urllib3\", \"version\": \"2.2\", \"purl\": \"pkg:pypi/urllib3@2.2\",\n"
        "   \"licenses\": [{\"license\": {\"id\": \"MIT\"}}]},\n"
        "  {\"bom-ref\": \"b3\", \"name\": \"tool\", \"version\": \"1\"},\n"
        "  {\"bom-ref\": \"b4\", \"name\": \"idna\", \"version\": \"3.7\", \"purl\": \"pkg:pypi/idna@3.7\"}],\n"
        " \"dependencies\": [{\"ref\": \"x\", \"dependsOn\": [\"b1\"]}, {\"ref\": \"b1\", \"dependsOn\": [\"b4\"]}]}\n";
    static const char c_doc[] =
        "{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"metadata\": {\"component\": {\"bom-ref\": \"y\", \"name\": \"other\", \"version\": \"3\"}},\n"
        " \"components\": [{\"bom-ref\": \"c1\", \"name\": \"idna\", \"version\": \"3.7\", \"purl\": \"pkg:pypi/idna@3.7\"}],\n"
        " \"dependencies\": [{\"ref\": \"y\", \"dependsOn\": [\"c1\"]}]}\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l[3] = {NULL, NULL, NULL}, *m = NULL;
    const char *labels[] = {"a.json", "b.json", "3"};
    CHECK(sb_lock_read(&l[0], a, NULL, a_doc, sizeof a_doc - 1, NULL, NULL, &err) == SB_OK);
    CHECK(sb_lock_read(&l[1], a, NULL, b_doc, sizeof b_doc - 1, NULL, NULL, &err) == SB_OK);
    CHECK(sb_lock_read(&l[2], a, NULL, c_doc, sizeof c_doc - 1, NULL, NULL, &err) == SB_OK);
    sb_sbom *s = NULL;
    /* same root: kept */
    if (l[0] && l[1] && sb_lock_merge(&m, a, l, labels, 2, NULL, &err) == SB_OK) {
        sb_select_opts o = {.environment = m->envs[0].name};
        CHECK(sb_select(&s, a, m, &o, &err) == SB_OK);
    }
    CHECK(s != NULL);
    if (s) {
        CHECK(s->npkgs == 4);
        CHECK_STR(s->root_name, "app");
        const sb_pkg *r = find(s, "requests"), *u = find(s, "urllib3"), *t = find(s, "tool"), *i = find(s, "idna");
        CHECK(r && u && t && i);
        if (r && u && t && i) {
            CHECK_STR(r->license, "Apache-2.0");
            CHECK_STR(prop_of(r, "pixi:merge-conflict"), "license: Apache-2.0 (a.json) vs MIT (b.json)");
            CHECK_STR(prop_of(r, "pixi:source-document"), "a.json, b.json");
            CHECK_STR(u->license, "MIT"); /* a gap filled, no conflict */
            CHECK(NULL == prop_of(u, "pixi:merge-conflict"));
            CHECK_STR(t->purl, "pkg:generic/tool@1"); /* no purl: name@version */
            CHECK_STR(prop_of(t, "pixi:source-document"), "a.json, b.json");
            CHECK_STR(prop_of(i, "pixi:source-document"), "b.json");
            CHECK(r->ndeps == 2); /* urllib3 from a, idna from b */
            /* the root's edge, and tool: nothing depends on it, the model hangs it on the root */
            CHECK(s->nroot == 2);
            int to_r = 0, to_t = 0;
            for (size_t k = 0; k < s->nroot; k++) {
                to_r |= &s->pkgs[s->root_deps[k]] == r;
                to_t |= &s->pkgs[s->root_deps[k]] == t;
            }
            CHECK(to_r && to_t);
        }
    }
    /* different roots: a synthetic one over a pkg:generic component per part root */
    s = NULL;
    if (l[0] && l[2] &&
        sb_lock_merge(&m, a, (sb_lock *const[]){l[0], l[2]}, (const char *const[]){"a.json", "2"}, 2, NULL, &err) ==
            SB_OK) {
        sb_select_opts o = {.environment = m->envs[0].name};
        CHECK(sb_select(&s, a, m, &o, &err) == SB_OK);
    }
    CHECK(s != NULL);
    if (s) {
        CHECK_STR(s->root_name, "merged");
        CHECK(s->npkgs == 6); /* 3 + 1 + the two roots */
        const sb_pkg *ra = find(s, "app"), *rc = find(s, "other");
        CHECK(ra && rc);
        if (ra && rc) {
            CHECK_STR(rc->purl, "pkg:generic/other@3");
            CHECK(rc->ndeps == 1 && !strcmp(s->pkgs[rc->deps[0]].name, "idna"));
            CHECK(ra->ndeps == 1 && !strcmp(s->pkgs[ra->deps[0]].name, "requests"));
            CHECK_STR(prop_of(rc, "pixi:source-document"), "2");
        }
        CHECK(s->nroot == 3); /* the two part roots, and the orphan tool */
    }
    /* the package bound holds across the parts */
    sb_limits lim = SB_LIMITS_DEFAULT;
    lim.max_packages = 4;
    CHECK(l[0] && l[1] && sb_lock_merge(&m, a, l, labels, 3, &lim, &err) == SB_ELIMIT);
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
         " {\"name\": \"b\", \"bom-ref\": \"r\"}]}",
         SB_EPARSE},
        {"{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"bomFormat\": \"CycloneDX\"}", SB_EPARSE},
        {"{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"components\": [{\"name\": \"a\", \"hashes\":"
         " [{\"alg\": \"SHA-1\", \"content\": \"abc\"}]}]}",
         SB_EPARSE},
        {"{\"spdxVersion\": \"SPDX-3.0\"}", SB_EUNSUPPORTED},
        {"{\"@context\": \"https://spdx.org/rdf/3.0.1/spdx-context.jsonld\", \"@graph\": {}}", SB_EPARSE},
        {"{\"@context\": \"https://spdx.org/rdf/3.0.1/spdx-context.jsonld\", \"@graph\": [1]}", SB_EPARSE},
        {"{\"@context\": \"https://spdx.org/rdf/3.0.1/spdx-context.jsonld\", \"@graph\": [{\"type\": \"CreationInfo\","
         " \"specVersion\": \"2.3\"}]}",
         SB_EUNSUPPORTED},
        {"{\"@context\": \"https://spdx.org/rdf/3.0.1/spdx-context.jsonld\", \"@graph\": [{\"type\": \"software_Package\","
         " \"spdxId\": \"urn:a\"}]}",
         SB_EPARSE},
        {"{\"@context\": \"https://spdx.org/rdf/3.0.1/spdx-context.jsonld\", \"@graph\": [{\"type\": \"software_Package\","
         " \"spdxId\": \"urn:a\", \"name\": \"a\", \"software_packageUrl\": \"nope\"}]}",
         SB_EPARSE},
        {"{\"@context\": \"https://spdx.org/rdf/3.0.1/spdx-context.jsonld\", \"@graph\": [{\"type\": \"software_Package\","
         " \"spdxId\": \"urn:a\", \"name\": \"a\"}, {\"type\": \"software_Package\", \"spdxId\": \"urn:a\", \"name\": \"b\"}]}",
         SB_EPARSE},
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
    static const char many[] =
        "{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"components\":"
        " [{\"name\": \"a\"}, {\"name\": \"b\"}, {\"name\": \"c\"}]}";
    static const char deep[] =
        "{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"components\":"
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

/* the value of the first `"key": "` in doc, up to its closing quote */
static char *value_of(const char *doc, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *at = doc ? strstr(doc, pat) : NULL;
    if (NULL == at && doc) { /* compact */
        snprintf(pat, sizeof pat, "\"%s\":\"", key);
        at = strstr(doc, pat);
    }
    if (NULL == at)
        return NULL;
    at += strlen(pat);
    const char *q = strchr(at, '"');
    return q ? strndup(at, (size_t)(q - at)) : NULL;
}

TEST(sbomin_identity_carried)
{
    static const struct {
        const sb_doc_ops *ops;
        const char *key;
    } fmts[] = {
        {&sb_doc_cyclonedx_16, "serialNumber"},
        {&sb_doc_cyclonedx_17, "serialNumber"},
        {&sb_doc_spdx_23, "documentNamespace"},
        {&sb_doc_spdx_301, "spdxId"},
    };
    size_t len;
    char *in = sb_test_read(sb_test_shared("fixtures/pixi/pixi--rev-0463268/pixi.lock"), &len);
    CHECK(in != NULL);
    if (NULL == in)
        return;
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        sb_arena *a = sb_arena_new(0);
        sb_err err;
        size_t n1 = 0, n2 = 0, n3 = 0, n4 = 0, n5 = 0;
        sb_sbom *s = model(a, in, len, "pixi.lock", &err);
        char *doc = s ? render(fmts[f].ops, s, in, len, &n1) : NULL;
        sb_sbom *back = doc ? model(a, doc, n1, NULL, &err) : NULL;
        char name[160];
        snprintf(name, sizeof name, "%s: read back", fmts[f].ops->name);
        sb_test_subcase(name, back && back->origin && back->origin->ours && back->origin->serial[0], err.msg);
        if (NULL == back) {
            free(doc);
            sb_arena_destroy(a);
            continue;
        }
        /* another clock (no timestamp= given): the source's timestamp stands */
        sb_doc_opts o = {.timestamp = 1800000000, .pretty = true, .input = doc, .input_len = n1};
        char *again = render_o(fmts[f].ops, back, o, &n2);
        snprintf(name, sizeof name, "%s: written again, the source byte for byte", fmts[f].ops->name);
        sb_test_subcase(name, again && n1 == n2 && !memcmp(doc, again, n1), "bytes differ");
        char *id1 = value_of(doc, fmts[f].key);
        /* timestamp= given: another document, another serial */
        o.timestamp_given = true;
        char *stamped = render_o(fmts[f].ops, back, o, &n3);
        char *id3 = value_of(stamped, fmts[f].key);
        snprintf(name, sizeof name, "%s: timestamp= given: another serial", fmts[f].ops->name);
        sb_test_subcase(name, id1 && id3 && strcmp(id1, id3) && strstr(stamped, "2027-01-15T08:00:00Z"),
                        id3 ? id3 : "none");
        /* compact: other bytes, another serial, and it names its source */
        o.timestamp_given = false;
        o.pretty = false;
        char *compact = render_o(fmts[f].ops, back, o, &n4);
        char *id4 = value_of(compact, fmts[f].key);
        snprintf(name, sizeof name, "%s: compact: another serial naming its source", fmts[f].ops->name);
        sb_test_subcase(name, id1 && id4 && strcmp(id1, id4) && strstr(compact, "pixi:source-document"),
                        id4 ? id4 : "none");
        /* a model change (the root's version): another serial */
        back->root_version = "9.9";
        o.pretty = true;
        char *changed = render_o(fmts[f].ops, back, o, &n5);
        char *id5 = value_of(changed, fmts[f].key);
        snprintf(name, sizeof name, "%s: a changed document: another serial", fmts[f].ops->name);
        sb_test_subcase(name, id1 && id5 && strcmp(id1, id5), id5 ? id5 : "none");
        free(id1), free(id3), free(id4), free(id5);
        free(doc), free(again), free(stamped), free(compact), free(changed);
        sb_arena_destroy(a);
    }
    free(in);
}

TEST(sbomin_incomplete_restore)
{
    sb_arena *a = sb_arena_new(0);
    sb_incomplete inc = {0};
    CHECK(sb_incomplete_add(&inc, a, "hashes", "2 of 9 package(s) without a hash") == SB_OK);
    CHECK(sb_incomplete_add(&inc, a, "manifest", "unreadable; line 3: a; b") == SB_OK); /* "; " inside a detail */
    CHECK(sb_incomplete_add(&inc, a, "hashes", "again") == SB_OK);
    const char *steps = sb_incomplete_steps(&inc, a), *detail = sb_incomplete_details(&inc, a);
    sb_incomplete back = {0};
    CHECK(sb_incomplete_restore(&back, a, steps, detail) == SB_OK);
    CHECK(back.n == 3);
    CHECK_STR(sb_incomplete_steps(&back, a), steps);
    CHECK_STR(sb_incomplete_details(&back, a), detail);
    CHECK_STR(back.detail[1], "manifest: unreadable; line 3: a; b");
    CHECK(sb_incomplete_restore(&back, a, NULL, NULL) == SB_OK);
    CHECK(back.n == 0 && NULL == sb_incomplete_steps(&back, a));
    sb_arena_destroy(a);
}
