// validate.mjs FILE [VARIANT] - every object in a rendered multi-document YAML
// (kubectl kustomize output) validated with the kubernetes-models class for
// its apiVersion/kind (the Kubernetes OpenAPI schemas), plus the rules our
// deployment promises; VARIANT (base, or the overlay's directory name) adds
// that overlay's rules. Closes with "deploy: N passed, N failed".
import fs from 'node:fs';
import YAML from 'yaml';

const variant = process.argv[3] || 'base';
const docs = YAML.parseAllDocuments(fs.readFileSync(process.argv[2], 'utf8')).map((d) => d.toJSON()).filter(Boolean);
let pass = 0, fail = 0;
const ok = (c, what) => { if (c) pass++; else { fail++; console.log(`  FAIL ${what}`); } };
const byKind = {}, all = {};
for (const o of docs) {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  const mod = group === '' ? `kubernetes-models/${version}` : `kubernetes-models/${group.replace(/\.k8s\.io$/, '') === group ? group : group}/${version}`;
  let Model;
  try { Model = (await import(mod))[o.kind]; } catch (e) { Model = undefined; }
  ok(Model, `${o.kind} ${o.apiVersion}: a schema exists (${mod})`);
  if (!Model) continue;
  try { new Model(o).validate(); ok(true); } catch (e) { ok(false, `${o.kind}/${o.metadata?.name}: ${String(e.message).slice(0, 400)}`); }
  if (!byKind[o.kind] || o.metadata?.name === 'sbomd') byKind[o.kind] = o;
  (all[o.kind] ||= []).push(o);
}
for (const k of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'ConfigMap', 'NetworkPolicy'])
  ok(byKind[k], `${k} is rendered`);
const d = byKind.Deployment;
if (d) {
  const pod = d.spec.template.spec, c = pod.containers[0];
  ok(d.spec.replicas === 2, 'two replicas');
  ok(c.readinessProbe?.httpGet?.path === '/readyz' && c.livenessProbe?.httpGet?.path === '/healthz', 'probes on /readyz and /healthz');
  // the probes go to the probe listener (SBOMD_PROBE_PORT), which a loaded
  // or trickled main listener cannot starve, and readiness needs two misses
  const cmd = byKind.ConfigMap?.data || {};
  const probePort = c.ports?.find((p) => p.name === 'probe');
  ok(probePort && String(probePort.containerPort) === cmd.SBOMD_PROBE_PORT, `a "probe" container port equal to SBOMD_PROBE_PORT (${cmd.SBOMD_PROBE_PORT})`);
  ok(c.readinessProbe?.httpGet?.port === 'probe' && c.livenessProbe?.httpGet?.port === 'probe', 'readiness and liveness on the probe port');
  ok((c.readinessProbe?.failureThreshold || 3) >= 2, 'readiness tolerates one missed probe');
  ok(String(cmd.SBOMD_PROBE_PORT) !== String(cmd.SBOMD_PORT || 8080), 'probe port differs from the main port');
  // the HPA scales on CPU against a request a busy worker actually uses
  const cpu = (q) => { const m = /^([0-9.]+)(m)?$/.exec(String(q)); return m ? Number(m[1]) / (m[2] ? 1000 : 1) : NaN; };
  const hpa = byKind.HorizontalPodAutoscaler;
  ok(hpa?.spec?.metrics?.some((m) => m.type === 'Resource' && m.resource?.name === 'cpu'), 'HPA on CPU');
  ok(cpu(c.resources?.requests?.cpu) >= 0.5, `a realistic CPU request (${c.resources?.requests?.cpu}, at least 500m)`);
  ok(hpa?.spec?.behavior?.scaleDown?.stabilizationWindowSeconds >= 60, 'HPA scales down slowly');
  // spread across nodes and zones
  const spread = pod.topologySpreadConstraints || [];
  for (const key of ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'])
    ok(spread.some((t) => t.topologyKey === key && t.labelSelector?.matchLabels?.['app.kubernetes.io/name'] === 'sbomd'), `topology spread over ${key}`);
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
  const timeout = Number(byKind.ConfigMap?.data?.SBOMD_REQUEST_TIMEOUT || 120);
  ok(pod.terminationGracePeriodSeconds >= delay + timeout,
     `grace period ${pod.terminationGracePeriodSeconds}s covers the ${delay}s shutdown delay + the ${timeout}s request timeout`);
  // egress: none unless lookups are on, then DNS and 443 only
  const egress = (all.NetworkPolicy || []).flatMap((n) => (n.spec.policyTypes || []).includes('Egress') ? (n.spec.egress || []) : []);
  const ports = egress.flatMap((e) => (e.ports || []).map((p) => Number(p.port)));
  const lookups = cmd.SBOMD_LOOKUPS === '1' || cmd.SBOMD_LOOKUPS === 'true';
  ok(egress.every((e) => e.ports && e.ports.length), 'every egress rule names its ports');
  if (lookups) ok(ports.includes(443) && ports.every((p) => p === 443 || p === 53), `lookups on: egress 443 and DNS only (${ports})`);
  else ok(egress.length === 0, `lookups off: no egress at all (${ports})`);
  const image = c.image || '';
  if (variant === 'pinned') ok(/@sha256:[0-9a-f]{64}$/.test(image) && !/:[^/@]+@/.test(image), `image pinned by digest (${image})`);
  if (variant === 'lookups') ok(lookups && ports.includes(443), 'the lookups overlay turns lookups on and opens 443');
  if (variant === 'auth') {
    const tf = cmd.SBOMD_TOKENS_FILE || '';
    const mount = c.volumeMounts?.find((m) => tf.startsWith(m.mountPath + '/'));
    const vol = mount && pod.volumes?.find((v) => v.name === mount.name);
    ok(vol?.secret?.secretName, `SBOMD_TOKENS_FILE (${tf}) is in a Secret volume`);
    ok(mount && !mount.subPath && mount.readOnly, 'the Secret is mounted read-only as a directory (no subPath: the kubelet updates it in place)');
    ok(tf && tf.slice(mount?.mountPath.length + 1) && !tf.slice(mount?.mountPath.length + 1).includes('/'), 'the tokens file is a key of the Secret');
  }
  const sel = d.spec.selector.matchLabels;
  const matches = (m) => m && Object.entries(m).every(([k, v]) => d.spec.template.metadata.labels[k] === v);
  ok(matches(byKind.Service?.spec?.selector), 'Service selects the pods');
  ok(matches(byKind.PodDisruptionBudget?.spec?.selector?.matchLabels), 'PodDisruptionBudget selects the pods');
  ok(matches(byKind.NetworkPolicy?.spec?.podSelector?.matchLabels), 'NetworkPolicy selects the pods');
  ok(sel && matches(sel), 'Deployment selector matches its template');
}
console.log(`deploy: ${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
