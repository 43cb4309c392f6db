// validate.mjs FILE - every object in a rendered multi-document YAML
// (kubectl kustomize output) validated with the kubernetes-models class for
// its apiVersion/kind (the Kubernetes OpenAPI schemas), plus the rules our
// deployment promises. Closes with "deploy: N passed, N failed".
import fs from 'node:fs';
import YAML from 'yaml';

const docs = YAML.parseAllDocuments(fs.readFileSync(process.argv[2], 'utf8')).map((d) => d.toJSON()).filter(Boolean);
let pass = 0, fail = 0;
const ok = (c, what) => { if (c) pass++; else { fail++; console.log(`  FAIL ${what}`); } };
const byKind = {};
for (const o of docs) {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  const mod = group === '' ? `kubernetes-models/${version}` : `kubernetes-models/${group.replace(/\.k8s\.io$/, '') === group ? group : group}/${version}`;
  let Model;
  try { Model = (await import(mod))[o.kind]; } catch (e) { Model = undefined; }
  ok(Model, `${o.kind} ${o.apiVersion}: a schema exists (${mod})`);
  if (!Model) continue;
  try { new Model(o).validate(); ok(true); } catch (e) { ok(false, `${o.kind}/${o.metadata?.name}: ${String(e.message).slice(0, 400)}`); }
  // an overlay adds objects of the same kinds (deploy/overlays/redis): the
  // rules below are about sbomd's own, named sbomd
  if (!byKind[o.kind] || o.metadata?.name === 'sbomd') byKind[o.kind] = o;
}
for (const k of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'ConfigMap', 'NetworkPolicy'])
  ok(byKind[k], `${k} is rendered`);
const d = byKind.Deployment;
if (d) {
  const pod = d.spec.template.spec, c = pod.containers[0];
  ok(d.spec.replicas === 2, 'two replicas');
  ok(c.readinessProbe?.httpGet?.path === '/readyz' && c.livenessProbe?.httpGet?.path === '/healthz', 'probes on /readyz and /healthz');
  ok(pod.securityContext?.runAsNonRoot === true && pod.securityContext?.seccompProfile?.type === 'RuntimeDefault', 'non-root, seccomp RuntimeDefault');
  ok(c.securityContext?.readOnlyRootFilesystem === true && c.securityContext?.capabilities?.drop?.includes('ALL') && c.securityContext?.allowPrivilegeEscalation === false, 'read-only root, no capabilities, no escalation');
  ok(c.resources?.requests?.memory && c.resources?.limits?.memory, 'memory requests and limits');
  // the memory budget (70% of the limit unless SBOMD_MEMORY_BUDGET sets it)
  // must hold one SBOMD_MAX_BODY request, charged 5x its body, and stay
  // below the limit; the request reserves what the budget hands out
  const bytes = (q) => { const m = /^([0-9]+)(Ki|Mi|Gi)?$/.exec(String(q)); return m ? Number(m[1]) * ({ Ki: 1024, Mi: 1048576, Gi: 1073741824 }[m[2]] || 1) : NaN; };
  const limit = bytes(c.resources?.limits?.memory), cm = byKind.ConfigMap?.data || {};
  const budget = Number(cm.SBOMD_MEMORY_BUDGET || 0) || Math.floor(limit / 100) * 70;
  const body = Number(cm.SBOMD_MAX_BODY || 67108864);
  ok(budget < limit && 5 * body <= budget, `memory budget ${budget} holds one ${body}-byte body (x5) under the ${limit}-byte limit`);
  ok(bytes(c.resources?.requests?.memory) === limit, 'memory request equals the limit the budget is derived from');
  const delay = Number(byKind.ConfigMap?.data?.SBOMD_SHUTDOWN_DELAY || 0);
  ok(pod.terminationGracePeriodSeconds > delay, `grace period ${pod.terminationGracePeriodSeconds}s covers the ${delay}s drain`);
  const sel = d.spec.selector.matchLabels;
  const matches = (m) => m && Object.entries(m).every(([k, v]) => d.spec.template.metadata.labels[k] === v);
  ok(matches(byKind.Service?.spec?.selector), 'Service selects the pods');
  ok(matches(byKind.PodDisruptionBudget?.spec?.selector?.matchLabels), 'PodDisruptionBudget selects the pods');
  ok(matches(byKind.NetworkPolicy?.spec?.podSelector?.matchLabels), 'NetworkPolicy selects the pods');
  ok(sel && matches(sel), 'Deployment selector matches its template');
}
// deploy/overlays/redis: the shared cache is wired end to end
const named = (kind, name) => docs.find((o) => o.kind === kind && o.metadata?.name === name);
const rd = named('Deployment', 'sbomd-redis');
if (rd) {
  const rs = named('Service', 'sbomd-redis'), rnp = named('NetworkPolicy', 'sbomd-redis');
  const cm = byKind.ConfigMap?.data || {};
  const m = /^redis:\/\/([^:/@]+):([0-9]+)\/[0-9]+$/.exec(cm.SBOMD_CACHE_URL || '');
  ok(m && rs && m[1] === rs.metadata.name && rs.spec.ports.some((p) => p.port === Number(m[2])),
    `SBOMD_CACHE_URL ${cm.SBOMD_CACHE_URL} names the Redis Service and its port`);
  const rlabels = rd.spec.template.metadata.labels;
  const sel = (s) => s && Object.entries(s).every(([k, v]) => rlabels[k] === v);
  ok(rs && sel(rs.spec.selector), 'the Redis Service selects the Redis pods');
  ok(rs && !sel(byKind.Service?.spec?.selector), "sbomd's Service does not select the Redis pods");
  const args = (rd.spec.template.spec.containers[0].args || []).join(' ');
  ok(/--maxmemory-policy allkeys-lru/.test(args) && /--maxmemory \S+/.test(args), 'Redis evicts at maxmemory (a cache, not a store)');
  const eg = byKind.NetworkPolicy?.spec?.egress || [];
  ok(eg.some((r) => r.ports?.some((p) => p.port === Number(m?.[2])) && r.to?.some((t) => sel(t.podSelector?.matchLabels))),
    "sbomd's NetworkPolicy lets it reach Redis");
  const sbomdPods = d?.spec.template.metadata.labels || {};
  ok(rnp && rnp.spec.ingress?.every((r) => r.from?.every((f) => f.podSelector && Object.entries(f.podSelector.matchLabels).every(([k, v]) => sbomdPods[k] === v))),
    "only sbomd's pods reach Redis");
  const rc = rd.spec.template.spec;
  ok(rc.securityContext?.runAsNonRoot === true && rc.containers[0].securityContext?.readOnlyRootFilesystem === true, 'Redis runs non-root, read-only root');
}
console.log(`deploy: ${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
