// contract.mjs BASE SLOW_BASE SHARED - drive a live sbomd through every
// documented operation and every status it documents, and check each answer
// against openapi/openapi.yaml: the status must be documented for the
// operation, the Content-Type must be one of that response's media types,
// JSON bodies must validate against the response schema (ajv, draft 2020),
// and every response header outside HTTP framing must be documented.
// SLOW_BASE is a second server started with --max-requests 1 (for 503).
// Prints one line per failure and closes with "contract: N passed, N failed".
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const here = path.dirname(fileURLToPath(import.meta.url));
const spec = YAML.parse(fs.readFileSync(path.join(here, '../../openapi/openapi.yaml'), 'utf8'));
const [base, slowBase, shared, authBase] = process.argv.slice(2);
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'openapi', components: spec.components });

let pass = 0, fail = 0;
const seen = new Set();
function ok(cond, what) {
  if (cond) pass++;
  else { fail++; console.log(`  FAIL ${what}`); }
}

// A server answering early (413 at the headers) closes while a body is still
// being written; node can surface that EPIPE outside any request's handlers.
// It is the expected shape of an early answer, not a test failure.
process.on('uncaughtException', (e) => {
  if (e && (e.code === 'EPIPE' || e.code === 'ECONNRESET')) return;
  console.error(e);
  console.log(`contract: ${pass} passed, ${fail + 1} failed`);
  process.exit(1);
});

const framing = new Set(['date', 'content-type', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

// One request over node:http. init.declare sends that many bytes of zeros;
// the server may answer (413) and close before reading them, so a write
// error after the response is not a failure.
async function send(url, method, init) {
  const { request } = await import('node:http');
  let body = init.body;
  let headers = { ...(init.headers || {}) };
  if (body instanceof FormData) {
    const r = new Request('http://x/', { method: 'POST', body });
    headers['Content-Type'] = r.headers.get('content-type');
    body = Buffer.from(await r.arrayBuffer());
  }
  if (typeof body === 'string') body = Buffer.from(body);
  if (init.declare) headers['Content-Length'] = String(init.declare);
  else if (body) headers['Content-Length'] = String(body.length);
  let answered = false;
  return new Promise((done, failed) => {
    const u = new URL(url);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers }, (res) => {
      answered = true;
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode, headers: new Headers(Object.entries(res.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks) }));
    });
    // a server that answers early (413, 401) may close before the body is
    // written: a write error is only a failure if no answer follows
    req.on('error', (e) => { if (!answered) setTimeout(() => { if (!answered) failed(e); }, 2000); });
    // a declared size is only announced: the server must answer from the
    // headers alone, and writing megabytes into a closed socket proves nothing
    if (body && !init.declare) req.write(body, () => {});
    req.end();
  });
}

function resolve(obj) {
  while (obj && obj.$ref) {
    const parts = obj.$ref.replace(/^#\//, '').split('/');
    obj = parts.reduce((o, k) => o[k], spec);
  }
  return obj;
}

// Rewrite #/components refs to point into the schema registered as 'openapi'.
function rebase(schema) {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/'));
}

async function call(name, pathName, method, init, expectStatus, srv = base, docMethod = method) {
  if (process.env.CONTRACT_DEBUG) console.error(`.. ${name}`);
  const op = spec.paths[pathName]?.[docMethod.toLowerCase()];
  ok(op, `${name}: ${method} ${pathName} is a documented operation`);
  if (!op) return null;
  const res = await send(srv + pathName + (init.query || ''), method, init);
  const body = res.body;
  const status = String(res.status);
  seen.add(`${docMethod} ${pathName} ${status}`);
  ok(status === String(expectStatus), `${name}: status ${status}, expected ${expectStatus}`);
  const doc = resolve(op.responses[status]);
  ok(doc, `${name}: status ${status} is documented for ${method} ${pathName}`);
  if (!doc) return { res, body };
  const ctype = res.headers.get('content-type') || '';
  const media = doc.content ? Object.keys(doc.content) : [];
  ok(media.length === 0 ? body.length === 0 : media.includes(ctype), `${name}: content-type '${ctype}' is one of ${JSON.stringify(media)}`);
  const documented = new Set(Object.keys(doc.headers || {}).map((h) => h.toLowerCase()));
  for (const [h] of res.headers) {
    if (!framing.has(h)) ok(documented.has(h), `${name}: header '${h}' is documented for ${status}`);
  }
  const schema = doc.content?.[ctype]?.schema;
  if (schema && /json/.test(ctype) && !/ndjson/.test(ctype)) {
    let value;
    try { value = JSON.parse(body.toString('utf8')); } catch (e) { ok(false, `${name}: body is JSON (${e.message})`); return { res, body }; }
    const validate = ajv.compile(rebase(resolve(schema)));
    ok(validate(value), `${name}: body matches the schema ${JSON.stringify(validate.errors || []).slice(0, 300)}`);
  }
  if (/ndjson/.test(ctype)) {
    const lines = body.toString('utf8').trim().split('\n');
    ok(lines.length > 0 && lines.every((l) => { try { JSON.parse(l); return true; } catch { return false; } }), `${name}: every NDJSON line is JSON`);
  }
  return { res, body };
}

const lock = fs.readFileSync(path.join(shared, 'fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock'));
const uv = fs.readFileSync(path.join(shared, 'fixtures/uv/pydantic/uv.lock'));
const sbom = '/v1/sbom';
for (const format of ['cyclonedx-1.6', 'cyclonedx-1.7', 'spdx-2.3', 'spdx-3.0.1'])
  await call(`sbom ${format}`, sbom, 'POST', { query: `?format=${format}`, body: lock }, 200);
await call('sbom via Accept', sbom, 'POST', { headers: { Accept: 'application/spdx+json; version=3.0.1' }, body: lock }, 200);
await call('sbom NDJSON', sbom, 'POST', { query: '?all-platforms=true', body: uv }, 200);
// GitHub's dependency snapshot: its media type, the GitHubSnapshot schema; all-* one document; 400 without sha
const ghq = '?format=github-snapshot&sha=0123456789abcdef0123456789abcdef01234567&ref=refs/heads/main&correlator=c&job-id=1';
await call('sbom github-snapshot', sbom, 'POST', { query: ghq, body: lock }, 200);
await call('sbom github-snapshot all-platforms', sbom, 'POST', { query: ghq + '&all-platforms=true', body: uv }, 200);
await call('sbom github-snapshot without sha', sbom, 'POST', { query: '?format=github-snapshot', body: lock }, 400);
const form = new FormData();
form.append('lockfile', new Blob([uv]), 'uv.lock');
await call('sbom multipart', sbom, 'POST', { body: form }, 200);
// the optional manifest part: read, unreadable (a documented Warning), malformed (400)
const pyproject = fs.readFileSync(path.join(here, '../data/manifests/uv-pydantic/pyproject.toml'));
const withManifest = (bytes, name) => {
  const f = new FormData();
  f.append('lockfile', new Blob([uv]), 'uv.lock');
  f.append('manifest', new Blob([bytes]), name);
  return f;
};
await call('sbom multipart with a manifest', sbom, 'POST', { body: withManifest(pyproject, 'pyproject.toml') }, 200);
await call('sbom manifest not readable (Warning)', sbom, 'POST', { body: withManifest('[x]\n', 'setup.cfg') }, 200);
await call('sbom manifest malformed', sbom, 'POST', { body: withManifest('[project]\nname = \n', 'pyproject.toml') }, 400);
await call('report packages with a manifest', '/v1/report/packages', 'POST',
           { body: withManifest(pyproject, 'pyproject.toml') }, 200);
await call('sbom empty body', sbom, 'POST', { body: '' }, 400);
await call('sbom bad query', sbom, 'POST', { query: '?pretty=maybe', body: lock }, 400);
// 405 is documented on the operation of the path; any other method gets it
await call('sbom wrong method', sbom, 'DELETE', {}, 405, base, 'POST');
await call('sbom unknown format', sbom, 'POST', { query: '?format=cyclonedx-1.2', body: lock }, 400);
await call('sbom not acceptable', sbom, 'POST', { headers: { Accept: 'image/png' }, body: lock }, 406);
await call('sbom too large', sbom, 'POST', { declare: 100 * 1024 * 1024 }, 413);
await call('sbom not a lockfile', sbom, 'POST', { body: 'hello\nworld\n' }, 415);
await call('sbom unknown environment', sbom, 'POST', { query: '?environment=nope', body: lock }, 422);
// 503: the slow server admits one request at a time; hold it with a slow upload
const { request } = await import('node:http');
const held = await new Promise((resolveHeld) => {
  const u = new URL(slowBase + sbom);
  const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST',
                        headers: { 'Content-Length': String(lock.length) } }, (res) => { res.resume(); res.on('end', () => resolveHeld.done?.()); });
  req.write(lock.subarray(0, 100));
  setTimeout(() => resolveHeld({ req }), 500);
});
await call('sbom busy', sbom, 'POST', { body: lock }, 503, slowBase);
// 401: the auth server needs a bearer token
await call('sbom without a token', sbom, 'POST', { body: lock }, 401, authBase);
await call('formats without a token', '/v1/formats', 'GET', {}, 401, authBase);
await call('version without a token', '/v1/version', 'GET', {}, 401, authBase);
held.req.end(lock.subarray(100));
// reports: each kind in both outputs, and the refusals
for (const kind of ['packages', 'licenses', 'python', 'tree', 'quality', 'vulnerabilities', 'outdated']) {
  const rp = `/v1/report/${kind}`;
  await call(`report ${kind} json`, rp, 'POST', { body: lock }, 200);
  await call(`report ${kind} text`, rp, 'POST', { headers: { Accept: 'text/plain' }, body: lock }, 200);
  await call(`report ${kind} bad output`, rp, 'POST', { query: '?output=xml', body: lock }, 400);
  await call(`report ${kind} wrong method`, rp, 'GET', {}, 405, base, 'POST');
  await call(`report ${kind} not acceptable`, rp, 'POST', { headers: { Accept: 'image/png' }, body: lock }, 406);
  await call(`report ${kind} not a lockfile`, rp, 'POST', { body: 'hello\nworld\n' }, 415);
  await call(`report ${kind} unknown environment`, rp, 'POST', { query: '?environment=nope', body: lock }, 422);
  await call(`report ${kind} without a token`, rp, 'POST', { body: lock }, 401, authBase);
}
// explain: the same, about one package (package= is required: without it a 400)
{
  const rp = '/v1/report/explain', q = '?package=python';
  const first = await call('report explain json', rp, 'POST', { query: q, body: lock }, 200);
  const etag = first?.res.headers.get('etag');
  await call('report explain If-None-Match', rp, 'POST', { query: q, headers: { 'If-None-Match': etag }, body: lock }, 304);
  await call('report explain text', rp, 'POST', { query: q, headers: { Accept: 'text/plain' }, body: lock }, 200);
  await call('report explain without package', rp, 'POST', { body: lock }, 400);
  await call('report explain bad output', rp, 'POST', { query: q + '&output=xml', body: lock }, 400);
  await call('report explain wrong method', rp, 'GET', {}, 405, base, 'POST');
  await call('report explain not acceptable', rp, 'POST', { query: q, headers: { Accept: 'image/png' }, body: lock }, 406);
  await call('report explain not a lockfile', rp, 'POST', { query: q, body: 'hello\nworld\n' }, 415);
  await call('report explain unknown environment', rp, 'POST', { query: q + '&environment=nope', body: lock }, 422);
  await call('report explain without a token', rp, 'POST', { query: q, body: lock }, 401, authBase);
}
// diff: two revisions of one project as the parts base and head
const rev = (r) => fs.readFileSync(path.join(shared, `fixtures/pixi/pixi-examples-pypi-rev-${r}/pixi.lock`));
const revs = [rev('bd4e26d'), rev('eddac34')];
const diffForm = (a = revs[0], b = revs[1], baseName = 'pixi.lock') => {
  const f = new FormData();
  f.append('base', new Blob([a]), baseName);
  f.append('head', new Blob([b]), 'pixi.lock');
  return f;
};
const dp = '/v1/diff';
await call('diff json', dp, 'POST', { body: diffForm() }, 200);
for (const output of ['text', 'markdown', 'csv'])
  await call(`diff ${output}`, dp, 'POST', { query: `?output=${output}`, body: diffForm() }, 200);
await call('diff markdown via Accept', dp, 'POST', { headers: { Accept: 'text/markdown' }, body: diffForm() }, 200);
await call('diff nothing changed, fail-on=diff', dp, 'POST', { query: '?fail-on=diff', body: diffForm(revs[1], revs[1]) }, 200);
await call('diff fail-on=diff', dp, 'POST', { query: '?fail-on=diff', body: diffForm() }, 422);
await call('diff unknown environment', dp, 'POST', { query: '?environment=nope', body: diffForm() }, 422);
await call('diff bad output', dp, 'POST', { query: '?output=sarif', body: diffForm() }, 400);
await call('diff wrong method', dp, 'GET', {}, 405, base, 'POST');
await call('diff not acceptable', dp, 'POST', { headers: { Accept: 'image/png' }, body: diffForm() }, 406);
await call('diff too large', dp, 'POST', { declare: 100 * 1024 * 1024 }, 413);
await call('diff not a lockfile', dp, 'POST', { body: diffForm(Buffer.from('hello\nworld\n'), revs[1], 'notes.dat') }, 415);
await call('diff without a token', dp, 'POST', { body: diffForm() }, 401, authBase);
// repeat uploads: the ETag of an answer sent back in If-None-Match is a 304 with no body
for (const p of [sbom, '/v1/report/packages', '/v1/report/licenses', '/v1/report/python', '/v1/report/tree', '/v1/report/quality']) {
  const first = await call(`${p} for its ETag`, p, 'POST', { query: '?timestamp=1700000000', body: lock }, 200);
  const etag = first?.res.headers.get('etag');
  ok(/^"[0-9a-f]{32}"$/.test(etag || ''), `${p}: a strong ETag (${etag})`);
  await call(`${p} If-None-Match`, p, 'POST', { query: '?timestamp=1700000000', headers: { 'If-None-Match': etag }, body: lock }, 304);
}
for (const [p, op] of Object.entries(spec.paths)) {
  if (!op.get) continue;
  const r = await call(`GET ${p}`, p, 'GET', {}, 200);
  // the assets built into the binary: their strong ETag gives a 304
  const etag = r?.res.headers.get('etag');
  if (etag && op.get.responses?.['304'])
    await call(`GET ${p} If-None-Match`, p, 'GET', { headers: { 'If-None-Match': etag } }, 304);
}
// every documented status of every operation was driven, except the documented-but-not-drivable ones
// GET /readyz 503 needs SIGTERM, POST /v1/sbom 408 an upload finishing in the
// instant before the deadline and 504 a parse outlasting it: the
// integration and hostile suites check the signal, the dropped upload and the
// truncated stream
const notDrivable = new Set(['GET /readyz 503', 'POST /v1/sbom 408', 'POST /v1/sbom 504']);
for (const [p, ops] of Object.entries(spec.paths)) {
  for (const [m, op] of Object.entries(ops)) {
    for (const st of Object.keys(op.responses)) {
      const key = `${m.toUpperCase()} ${p} ${st}`;
      ok(seen.has(key) || notDrivable.has(key), `documented ${key} was exercised`);
    }
  }
}
console.log(`contract: ${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
