// page.mjs BASE SHARED OUTDIR [AUTHBASE TOKEN] - drive the page at / in
// Debian's headless Chromium (playwright-core, executablePath
// /usr/bin/chromium): the input kinds it lists against the server's, upload a
// fixture through the file input, show the reports, check each report's table
// against the server's own report (licenses, packages, python, tree, quality,
// outdated, vulnerabilities, explain, the diff of two revisions), download an
// SBOM and a CSV and check them, and check the page made no request to any
// other origin, nor for /favicon.ico (its icon is inline).
// Prints "browser: N passed, N failed"; writes OUTDIR/page.png, and with
// SB_UPDATE_SCREENSHOT=1 copies it over the README's picture,
// tests/browser/screenshot.png (a test run leaves the tracked tree alone).
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [base, shared, outdir, authBase, authToken] = process.argv.slice(2);
let pass = 0, fail = 0;
const ok = (c, what) => { if (c) pass++; else { fail++; console.log(`  FAIL ${what}`); } };
fs.mkdirSync(outdir, { recursive: true });
const fixture = path.join(shared, 'fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock');
const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.join(here, '../..');
// the README's picture: a fixed viewport, so its size is known
const shot = path.join(here, 'screenshot.png');
const viewport = { width: 1280, height: 1100 };
const curl = (...args) => execFileSync('curl', ['-sS', ...args]).toString();
const report = (kind, file, q = '') => JSON.parse(curl('--data-binary', '@' + file, `${base}/v1/report/${kind}?filename=${path.basename(file)}${q}`));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const context = await browser.newContext({ acceptDownloads: true, viewport });
  const page = await context.newPage();
  const foreign = [], favicon = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(base)) foreign.push(r.url());
    if (new URL(r.url()).pathname === '/favicon.ico') favicon.push(r.url());
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(base + '/');
  ok((await page.title()) === 'sbomd', 'the page is served at /');
  // the format list comes from /v1/formats
  await page.waitForFunction(() => document.querySelectorAll('#format option').length === 4);
  ok(true, 'the format list is filled from /v1/formats');

  // the favicon is inline: no route, no request
  const icon = await page.getAttribute('link[rel="icon"]', 'href');
  ok(icon && icon.startsWith('data:image/svg+xml,'), `a favicon link with an inline SVG (${(icon || '').slice(0, 30)})`);

  // the input kinds: the page lists what the server says it reads, and the
  // list written in the HTML (shown before the answer) is the same one
  const version = JSON.parse(curl(base + '/v1/version'));
  await page.waitForSelector('#inputs[data-from="server"]');
  const kinds = await page.$$eval('#inputs li', (lis) => lis.map((li) => li.dataset.kind));
  ok(JSON.stringify(kinds) === JSON.stringify(version.inputs) && kinds.length >= 14,
     `the page lists the server's ${version.inputs.length} input kinds (${kinds.join(', ')})`);
  const html = curl(base + '/');
  const written = [...html.matchAll(/data-kind="([^"]+)"/g)].map((m) => m[1]);
  ok(JSON.stringify([...written].sort()) === JSON.stringify([...version.inputs].sort()),
     `the HTML's own list names the same kinds (${written.length})`);
  const lede = await page.textContent('.lede');
  ok(['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock', 'CycloneDX', 'SPDX', 'explicit conda spec']
     .every((w) => lede.includes(w)), 'JavaScript lockfiles and SBOMs are named in the text');
  ok((await page.getAttribute('#file', 'accept')) === null, 'the file input excludes no kind (no accept filter)');
  ok((await page.$$eval('input:not([type=hidden]), select', (els) => els.filter((e) => !e.closest('label')).length)) === 0,
     'every input and select is inside its label');
  const csvLabels = await page.$$eval('button[data-csv]', (bs) => bs.map((b) => b.getAttribute('aria-label')));
  ok(csvLabels.length === 9 && new Set(csvLabels).size === 9 && csvLabels.every((l) => /^Download the .+ as CSV$/.test(l)),
     `each report's CSV button says which report it saves (${csvLabels.length})`);
  ok((await page.getAttribute('#file', 'aria-label')) === 'Lockfile or SBOM', 'the file input has a name');

  // a file that is not a lockfile: the problem's detail is shown
  const junk = path.join(outdir, 'notes.txt');
  fs.writeFileSync(junk, 'hello\nworld\n');
  await page.setInputFiles('#file', junk);
  await page.waitForFunction(() => !document.getElementById('reports').disabled);
  await page.click('#reports');
  await page.waitForFunction(() => document.getElementById('status').className === 'error');
  const err = await page.textContent('#status');
  // notes.txt reads as a requirements file: the located refusal is shown
  ok(/^Unsupported input: line 1: 'hello' is not pinned/.test(err), `a file that is not a lockfile shows the server's problem (${err.slice(0, 80)})`);
  // a manifest chosen as the lockfile: the page's own advice (its two file fields), not curl's
  await page.setInputFiles('#file', path.join(here, '../data/manifests/pixi-solve-groups/pixi.toml'));
  await page.waitForFunction(() => document.getElementById('chosen').textContent.startsWith('pixi.toml'));
  await page.click('#reports');
  await page.waitForFunction(() => /manifest, not a lockfile/.test(document.getElementById('status').textContent));
  const manErr = await page.textContent('#status');
  ok(manErr.includes('choose its lockfile (pixi.lock) above, and pixi.toml under Manifest (optional)') && !manErr.includes('curl'),
     `a manifest as the lockfile: the page says which fields to use, no curl (${manErr.slice(0, 120)})`);

  // the fixture: reports as tables
  await page.setInputFiles('#file', fixture);
  await page.waitForFunction(() => document.getElementById('chosen').textContent.startsWith('pixi.lock'));
  await page.click('#reports');
  await page.waitForSelector('#licenses-section:not([hidden]) tbody tr');
  const rows = await page.$$eval('#licenses tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const want = JSON.parse(execFileSync('curl', ['-sS', '--data-binary', '@' + fixture, base + '/v1/report/licenses?filename=pixi.lock']));
  const expected = want.summary.by_license.map((c) => [c.license, c.spdx ? 'yes' : 'no', String(c.count), c.packages.join(', ')]);
  ok(rows.length === expected.length && rows.length > 5, `license table has ${rows.length} rows (report: ${expected.length})`);
  ok(JSON.stringify(rows) === JSON.stringify(expected), 'license table rows equal the licenses report, in its order');
  ok(rows[0][0] === 'BSD-3-Clause' && rows[0][2] === '4', `the most common license first (${rows[0]})`);
  const notes = await page.textContent('#licenses-notes');
  // _libgcc_mutex states its license as 'None': no license, not free text (issue 18 item 9)
  // the 22 PyPI packages record no license: not known, not "none" (issue 37), said apart with why
  ok(notes.includes('No license (1): _libgcc_mutex. ') && notes.includes('License not known (22): ') &&
     notes.includes('fetch-licenses=true') && notes.includes('Not an SPDX expression (0)'), `unknowns are flagged (${notes.slice(0, 160)})`);
  const pkgRows = await page.$$eval('#packages tbody tr', (trs) => trs.length);
  ok(pkgRows === want.summary.packages, `packages table has a row per package (${pkgRows})`);
  const status = await page.textContent('#status');
  ok(status.includes('46 packages') && status.includes('linux-64'), `status line (${status})`);
  // the other reports, each a table of the server's own rows
  await page.waitForFunction(() => ['python', 'tree', 'quality', 'outdated', 'vulnerabilities', 'explain']
    .every((n) => document.getElementById(n + '-section').dataset.state));
  for (const [kind, col, key] of [['python', 0, 'name'], ['tree', 1, 'name'], ['quality', 1, 'element']]) {
    const wantRows = report(kind, fixture)[kind];
    const got = await page.$$eval(`#${kind} tbody tr`, (trs, c) => trs.map((tr) => tr.cells[c].textContent), col);
    ok(got.length > 0 && JSON.stringify(got) === JSON.stringify(wantRows.map((r) => r[key])),
       `the ${kind} table has the report's ${wantRows.length} rows, in its order (${got.length})`);
  }
  const q = report('quality', fixture).summary.profiles;
  const qNote = await page.textContent('#quality-notes');
  ok(q.length === 3 && q.every((p) => qNote.includes(`${p.profile} ${p.verdict}`)),
     `the quality verdict of each profile (${qNote.slice(0, 90)})`);
  ok(/sbom-author/.test(qNote), 'without an SBOM author, the quality note lists sbom-author as failing');
  // the SBOM author field: sent as author=, the quality report's sbom-author element is met
  await page.fill('#author', 'Organization: ACME (sbom@acme.example)');
  await page.click('#reports');
  await page.waitForFunction(() => document.getElementById('quality-section').dataset.state === 'done' &&
                                   /Verdicts:/.test(document.getElementById('quality-notes').textContent) &&
                                   !/sbom-author/.test(document.getElementById('quality-notes').textContent));
  ok(!/sbom-author/.test(await page.textContent('#quality-notes')), 'with the SBOM author field filled, sbom-author is met');
  await page.fill('#author', '');
  ok((await page.$$eval('#tree tbody tr', (trs) => trs.filter((tr) => tr.cells[0].textContent === '0').length)) === report('tree', fixture).summary.roots,
     'the tree shows its roots at depth 0');
  // without --lookups / --vulnerabilities: offered, and the page says why they hold nothing
  ok((await page.textContent('#outdated-notes')).includes('started without --lookups'), `outdated says the server has no lookups (${(await page.textContent('#outdated-notes')).slice(0, 90)})`);
  ok((await page.textContent('#vulnerabilities-notes')).includes('started without --vulnerabilities'), 'vulnerabilities says the server has no OSV lookups');
  ok((await page.textContent('#explain-notes')).startsWith('No rows. Give a package name'), 'explain asks for a package name');
  ok(await page.$eval('#diff-section', (s) => s.hidden), 'no base revision: no diff section');
  const toc = await page.$$eval('#toc li:not([hidden]) a', (as) => as.map((a) => a.getAttribute('href')));
  ok(toc.length === 8 && (await page.$$(toc.join(', '))).length === 8, `links to the eight reports shown (${toc.join(' ')})`);
  await page.screenshot({ path: path.join(outdir, 'page.png'), fullPage: false });
  if (process.env.SB_UPDATE_SCREENSHOT === '1')
    fs.copyFileSync(path.join(outdir, 'page.png'), shot);
  const png = fs.readFileSync(path.join(outdir, 'page.png'));
  ok(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) &&
     png.readUInt32BE(16) === viewport.width && png.readUInt32BE(20) === viewport.height,
     `the screenshot is a ${viewport.width}x${viewport.height} PNG (${png.readUInt32BE(16)}x${png.readUInt32BE(20)})`);
  ok(fs.readFileSync(path.join(root, 'README.md'), 'utf8').includes('](tests/browser/screenshot.png)'),
     'README.md shows tests/browser/screenshot.png');

  // explain one package: its facts, as the server tells them
  await page.fill('#package', 'flask');
  await page.press('#package', 'Enter'); // from the keyboard: Enter in a field shows the reports
  await page.waitForFunction(() => document.querySelectorAll('#explain tbody tr').length > 0);
  const facts = await page.$$eval('#explain tbody tr', (trs) => trs.map((tr) => tr.cells[2].textContent));
  const wantFacts = report('explain', fixture, '&package=flask').explain.map((r) => r.fact);
  ok(JSON.stringify(facts) === JSON.stringify(wantFacts) && facts.includes('purl'), `explain flask lists its ${wantFacts.length} facts (${facts.slice(0, 4)})`);

  // a report as CSV: the server's CSV, under the name it gives
  const [csvDl] = await Promise.all([page.waitForEvent('download'), page.click('button[data-csv="python"]')]);
  const csvPath = path.join(outdir, csvDl.suggestedFilename());
  await csvDl.saveAs(csvPath);
  ok(csvDl.suggestedFilename() === 'python-report-default-linux-64.csv' &&
     fs.readFileSync(csvPath, 'utf8') === curl('--data-binary', '@' + fixture, `${base}/v1/report/python?filename=pixi.lock&output=csv`),
     `the python CSV download is the server's (${csvDl.suggestedFilename()})`);

  // download an SPDX 2.3 document and validate it
  await page.selectOption('#format', 'spdx-2.3');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  const saved = path.join(outdir, download.suggestedFilename());
  await download.saveAs(saved);
  ok(download.suggestedFilename() === 'pixi.lock.spdx.json', `download name (${download.suggestedFilename()})`);
  let valid = false;
  try {
    execFileSync(path.join(shared, 'tools/validate-sbom'), ['-q', '--format', 'spdx-2.3', saved], { stdio: 'pipe' });
    valid = true;
  } catch (e) { console.log(String(e.stdout || e)); }
  ok(valid, 'the downloaded SBOM validates (spdx-2.3)');
  const doc = JSON.parse(fs.readFileSync(saved, 'utf8'));
  ok(doc.packages.length === want.summary.packages + 1, 'the SBOM holds every package and the root');

  // two revisions: the diff's added, removed and upgraded rows, and its CSV
  const headLock = path.join(root, 'examples/poetry-5484122/poetry.lock');
  const baseLock = path.join(root, 'examples/poetry-be09d9c/poetry.lock');
  await page.fill('#package', '');
  await page.setInputFiles('#file', headLock);
  await page.setInputFiles('#base', baseLock);
  await page.waitForFunction(() => document.getElementById('chosen').textContent.startsWith('poetry.lock'));
  await page.waitForTimeout(200); // the base's bytes are read asynchronously
  await page.click('#reports');
  await page.waitForFunction(() => document.getElementById('diff-section').dataset.state === 'done');
  const diffRows = await page.$$eval('#diff tbody tr', (trs) => trs.map((tr) => [...tr.cells].slice(0, 5).map((c) => c.textContent).join(' ')));
  ok(JSON.stringify(diffRows) === JSON.stringify(['added pypi more-itertools - 8.3.0', 'removed pypi html5lib 1.1 -', 'upgraded pypi poetry-core 1.0.0a8 1.0.0a9']),
     `the diff shows the added, removed and upgraded rows (${diffRows.join('; ')})`);
  ok((await page.textContent('#diff-notes')).includes('added 1, removed 1, upgraded 1'), `the diff's summary (${(await page.textContent('#diff-notes')).slice(0, 120)})`);
  const [diffDl] = await Promise.all([page.waitForEvent('download'), page.click('button[data-csv="diff"]')]);
  const diffCsv = path.join(outdir, 'diff.csv');
  await diffDl.saveAs(diffCsv);
  ok(fs.readFileSync(diffCsv, 'utf8') === curl('-F', 'base=@' + baseLock, '-F', 'head=@' + headLock, base + '/v1/diff?output=csv'),
     `the diff CSV download is the server's (${diffDl.suggestedFilename()})`);
  // a base the server cannot read: its problem shows in the diff section, the other reports still show
  await page.setInputFiles('#base', junk);
  await page.waitForTimeout(200);
  await page.click('#reports');
  await page.waitForFunction(() => document.getElementById('diff-section').dataset.state === 'error');
  const diffErr = await page.textContent('#diff-notes');
  ok(/^Unsupported input: /.test(diffErr) && (await page.$$('#packages tbody tr')).length === 100,
     `a base that is not a lockfile: the server's problem in the diff section (${diffErr.slice(0, 80)})`);
  await page.setInputFiles('#base', []);
  await page.setInputFiles('#file', fixture);
  await page.waitForFunction(() => document.getElementById('chosen').textContent.startsWith('pixi.lock'));

  // environment selection reaches the server, and its refusal is shown
  await page.fill('#environment', 'nope');
  await page.click('#reports');
  await page.waitForFunction(() => document.getElementById('status').className === 'error');
  ok((await page.textContent('#status')).includes('default'), 'an unknown environment names the choices');

  // a lockfile with its manifest: sent as multipart, the Declared column and the declared count
  const pxLock = path.join(shared, 'fixtures/pixi/pixi-examples-solve-groups-rev-2c8e724/pixi.lock');
  const pxToml = path.join(here, '../data/manifests/pixi-solve-groups/pixi.toml');
  await page.fill('#environment', '');
  await page.setInputFiles('#file', pxLock);
  await page.setInputFiles('#manifest', pxToml);
  await page.waitForFunction(() => document.getElementById('chosen').textContent.startsWith('pixi.lock'));
  await page.waitForTimeout(200); // the manifest's bytes are read asynchronously
  await page.click('#reports');
  await page.waitForFunction(() => document.getElementById('status').textContent.includes('declared by the manifest'));
  const declaredCells = await page.$$eval('#packages tbody tr', (trs) => trs.map((tr) => [tr.cells[0].textContent, tr.cells[3].textContent]).filter((c) => c[1] !== '-'));
  ok(JSON.stringify(declaredCells.map((c) => c.join(' ')).sort()) === JSON.stringify(['matplotlib min_py38', 'py-rattler min_py38', 'pytest default', 'python min_py38']),
     `the Declared column shows the manifest's features (${declaredCells.map((c) => c.join(' ')).join('; ')})`);
  ok((await page.textContent('#status')).includes('4 declared by the manifest'), `status counts the declared packages (${await page.textContent('#status')})`);
  const scopeCells = await page.$$eval('#packages tbody tr', (trs) => trs.map((tr) => tr.cells[4].textContent));
  ok(scopeCells.length > 0 && scopeCells.every((c) => c === '-'), 'a pixi.lock has no scopes: the Scope column is empty');

  // a uv.lock with its pyproject.toml: dependency groups give development, extras optional
  const uvLock = path.join(shared, 'fixtures/uv/pydantic/uv.lock');
  const uvToml = path.join(here, '../data/manifests/uv-pydantic/pyproject.toml');
  await page.setInputFiles('#file', uvLock);
  await page.setInputFiles('#manifest', uvToml);
  await page.waitForFunction(() => document.getElementById('chosen').textContent.startsWith('uv.lock'));
  await page.waitForTimeout(200);
  await page.click('#reports');
  await page.waitForFunction(() => /declared by the manifest/.test(document.getElementById('status').textContent) &&
                                   document.querySelector('#packages tbody tr td') !== null &&
                                   [...document.querySelectorAll('#packages tbody tr')].some((tr) => tr.cells[0].textContent === 'pytest'));
  const scopeOf = Object.fromEntries(await page.$$eval('#packages tbody tr', (trs) => trs.map((tr) => [tr.cells[0].textContent, tr.cells[4].textContent])));
  ok(scopeOf.pytest === 'development' && scopeOf['typing-extensions'] === 'required' && scopeOf['email-validator'] === 'optional',
     `the Scope column: pytest development, typing-extensions required, email-validator optional (${scopeOf.pytest}, ${scopeOf['typing-extensions']}, ${scopeOf['email-validator']})`);
  ok(/PyPI package\(s\) have no license in the lockfile and this server makes no license lookups/.test(await page.textContent('#licenses-notes')),
     'uv.lock-style PyPI packages without a license on a server without lookups: the notice says they are unknown, not absent');
  await page.setInputFiles('#file', pxLock);
  await page.setInputFiles('#manifest', pxToml);
  await page.waitForFunction(() => document.getElementById('chosen').textContent.startsWith('pixi.lock'));
  await page.waitForTimeout(200);
  await page.selectOption('#format', 'cyclonedx-1.6');
  const [dl2] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  const saved2 = path.join(outdir, 'with-manifest.cdx.json');
  await dl2.saveAs(saved2);
  const doc2 = JSON.parse(fs.readFileSync(saved2, 'utf8'));
  ok(doc2.metadata.component.name === 'solve-groups' && doc2.metadata.component.version === '0.1.0',
     `the downloaded document's root comes from the manifest (${doc2.metadata.component.name})`);

  // a server with a tokens file: the page says a token is needed, then lists every format once given
  if (authBase) {
    const ap = await context.newPage();
    await ap.goto(authBase + '/');
    await ap.waitForFunction(() => /asks for a token/.test(document.getElementById('status').textContent));
    ok(!(await ap.$('#inputs[data-from="server"]')) && (await ap.$$('#inputs li')).length === version.inputs.length,
       "before the token: the HTML's own list of input kinds stands");
    ok((await ap.$$('#format option')).length === 1, 'before the token: only the built-in default format');
    await ap.fill('#token', authToken);
    await ap.dispatchEvent('#token', 'change');
    await ap.waitForFunction(() => document.querySelectorAll('#format option').length === 4);
    ok(true, 'with the token: the four formats from /v1/formats');
    ok(!/asks for a token/.test(await ap.textContent('#status')), 'the token notice is gone once the formats are listed');
    await ap.waitForSelector('#inputs[data-from="server"]');
    ok((await ap.$$('#inputs li')).length === version.inputs.length, 'with the token: the input kinds from /v1/version');
    await ap.close();
  }
  ok(foreign.length === 0, `no request left this server (${foreign.join(', ')})`);
  ok(favicon.length === 0, `no request for /favicon.ico (${favicon.length})`);
  ok(errors.length === 0, `no script errors (${errors.join('; ')})`);
} finally {
  await browser.close();
}
console.log(`browser: ${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
