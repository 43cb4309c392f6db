// validate.mjs FILE [NAME [COMPONENTS]] - every object in a rendered
// multi-document YAML (kubectl kustomize output) validated with the
// kubernetes-models class for its apiVersion/kind (the Kubernetes OpenAPI
// schemas; the PodMonitor with @kubernetes-models/prometheus-operator, the
// operator's CRD schema), plus the rules our deployment promises. COMPONENTS
// (comma-separated: auth, lookups, vulns, redis, monitoring from
// deploy/components) adds each listed component's rules and checks that
// the ones not listed left no trace; NAME "pinned" adds the digest rule,
// "registry" the pushed image's.
// Closes with "deploy: N passed, N failed".
import fs from 'node:fs';
import YAML from 'yaml';

const variant = process.argv[3] || 'base';
const comps = new Set((process.argv[4] || '').split(',').filter(Boolean));
const has = (c) => comps.has(c);
// CRDs: the npm package that carries the group's schemas
const crdPackages = { 'monitoring.coreos.com': '@kubernetes-models/prometheus-operator' };
const docs = YAML.parseAllDocuments(fs.readFileSync(process.argv[2], 'utf8')).map((d) => d.toJSON()).filter(Boolean);
let pass = 0, fail = 0;
const ok = (c, what) => { if (c) pass++; else { fail++; console.log(`  FAIL ${what}`); } };
// a rule's result printed either way (the component rules, one line each)
const say = (c, what) => { ok(c, what); if (c) console.log(`  ok ${what}`); };
const byKind = {}, all = {};
for (const o of docs) {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  const mod = group === '' ? `kubernetes-models/${version}` : `${crdPackages[group] || 'kubernetes-models'}/${group}/${version}`;
  let Model;
  try { Model = (await import(mod))[o.kind]; } catch (e) { Model = undefined; }
  ok(Model, `${o.kind} ${o.apiVersion}: a schema exists (${mod})`);
  if (!Model) continue;
  try { new Model(o).validate(); ok(true); } catch (e) { ok(false, `${o.kind}/${o.metadata?.name}: ${String(e.message).slice(0, 400)}`); }
  if (!byKind[o.kind] || o.metadata?.name === 'sbomd') byKind[o.kind] = o;
  (all[o.kind] ||= []).push(o);
}
if (byKind.Deployment) {
  const ref = (byKind.Deployment.spec.template.spec.containers[0].envFrom || []).map((e) => e.configMapRef?.name).find(Boolean);
  byKind.ConfigMap = (all.ConfigMap || []).find((o) => o.metadata.name === ref) || byKind.ConfigMap;
}
for (const k of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'ConfigMap', 'NetworkPolicy'])
  ok(byKind[k], `${k} is rendered`);
const d = byKind.Deployment;
const named = (kind, name) => docs.find((o) => o.kind === kind && o.metadata?.name === name);
const isOn = (v) => v === '1' || v === 'true';
const lookupsOn = (cm) => isOn(cm.SBOMD_LOOKUPS);
// what asks the internet: license/index lookups, vulnerability lookups
// (OSV, and KEV/EPSS with them), a PyPI mapping fetched by URL
const networkOn = (cm) => lookupsOn(cm) || isOn(cm.SBOMD_VULNERABILITIES) || !!cm.SBOMD_PYPI_MAPPING_URL;
if (d) {
  const pod = d.spec.template.spec, c = pod.containers[0];
  const matches = (m) => m && Object.entries(m).every(([k, v]) => d.spec.template.metadata.labels[k] === v);
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
  ok(cmd.SBOMD_METRICS_ON_MAIN === '0', 'SBOMD_METRICS_ON_MAIN=0: /metrics only on the probe port, which the NetworkPolicies guard');
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
  // egress: none unless lookups are on, then DNS and 443 only; a rule to
  // pods in the cluster (the shared cache of deploy/components/redis, with the
  // DNS to find it) is not egress to the internet
  const sbomdNp = (all.NetworkPolicy || []).filter((n) => matches(n.spec.podSelector?.matchLabels));
  const allEgress = sbomdNp.flatMap((n) => (n.spec.policyTypes || []).includes('Egress') ? (n.spec.egress || []) : []);
  const inCluster = (e) => e.to && e.to.length && e.to.every((t) => t.podSelector && !t.ipBlock);
  const egress = allEgress.filter((e) => !inCluster(e));
  ok(allEgress.filter(inCluster).every((e) => e.ports && e.ports.length), 'every in-cluster egress rule names its ports');
  if (!networkOn(cmd)) {
    const dnsOnly = egress.every((e) => (e.ports || []).every((p) => Number(p.port) === 53));
    ok(dnsOnly && (egress.length === 0 || allEgress.some(inCluster)), 'lookups off: DNS only when an in-cluster peer needs it');
  }
  const ports = egress.flatMap((e) => (e.ports || []).map((p) => Number(p.port)));
  const lookups = lookupsOn(cmd), network = networkOn(cmd);
  ok(egress.every((e) => e.ports && e.ports.length), 'every egress rule names its ports');
  if (network) ok(ports.includes(443) && ports.every((p) => p === 443 || p === 53), `network on: egress 443 and DNS only (${ports})`);
  else ok(egress.every((e) => (e.ports || []).every((p) => Number(p.port) === 53)), `network off: no egress out of the cluster (${ports})`);
  // every upstream the settings name is HTTPS on 443, the port the egress opens
  const upstreams = ['SBOMD_OSV_URL', 'SBOMD_KEV_URL', 'SBOMD_EPSS_URL', 'SBOMD_PYPI_MAPPING_URL', 'SBOMD_PYPI_URL', 'SBOMD_CONDA_URL', 'SBOMD_SCORECARD_URL']
    .filter((k) => cmd[k]);
  for (const k of upstreams) {
    let u = null;
    try { u = new URL(cmd[k]); } catch (e) { u = null; }
    ok(u && u.protocol === 'https:' && (u.port === '' || u.port === '443'), `${k} (${cmd[k]}) is HTTPS on 443`);
  }
  if (has('vulns')) {
    ok(isOn(cmd.SBOMD_VULNERABILITIES), 'the vulns component turns vulnerability lookups on');
    for (const k of ['SBOMD_OSV_URL', 'SBOMD_KEV_URL', 'SBOMD_EPSS_URL'])
      ok(cmd[k], `the vulns component names ${k} (the hosts its egress must reach)`);
    ok(ports.includes(443) && ports.includes(53), `the vulns component opens 443 and DNS (${ports})`);
    // the cache: answers shared through the redis component's Redis when it
    // is there, the mapping's copy in the pod's emptyDir (SBOMD_CACHE_DIR)
    if (has('redis'))
      ok(/^redis:\/\/sbomd-redis:/.test(cmd.SBOMD_CACHE_URL || '') && named('Deployment', 'sbomd-redis'),
        `OSV/KEV/EPSS answers go to the shared Redis cache (${cmd.SBOMD_CACHE_URL})`);
    const cm = c.volumeMounts?.find((m) => m.mountPath === cmd.SBOMD_CACHE_DIR);
    ok(cm && pod.volumes?.find((v) => v.name === cm.name)?.emptyDir, `SBOMD_CACHE_DIR (${cmd.SBOMD_CACHE_DIR}) is an emptyDir volume`);
  }
  const image = c.image || '';
  // the registry overlay: a pushed image by name and tag, none of the local build's
  if (variant === 'registry') ok(/^[a-z0-9.-]+\.[a-z]{2,}(:[0-9]+)?\/sbomd:[A-Za-z0-9._-]+$/.test(image), `image from a registry, by tag (${image})`);
  if (variant === 'pinned') ok(/@sha256:[0-9a-f]{64}$/.test(image) && !/:[^/@]+@/.test(image), `image pinned by digest (${image})`);
  if (has('lookups')) ok(lookups && ports.includes(443), 'the lookups component turns lookups on and opens 443');
  if (has('auth')) {
    const tf = cmd.SBOMD_TOKENS_FILE || '';
    const mount = c.volumeMounts?.find((m) => tf.startsWith(m.mountPath + '/'));
    const vol = mount && pod.volumes?.find((v) => v.name === mount.name);
    ok(vol?.secret?.secretName, `SBOMD_TOKENS_FILE (${tf}) is in a Secret volume`);
    ok(mount && !mount.subPath && mount.readOnly, 'the Secret is mounted read-only as a directory (no subPath: the kubelet updates it in place)');
    ok(tf && tf.slice(mount?.mountPath.length + 1) && !tf.slice(mount?.mountPath.length + 1).includes('/'), 'the tokens file is a key of the Secret');
    // the kubelet writes the file root-owned with defaultMode (0644 when
    // unset), and with fsGroup as its group: the pod's user must read it
    // through the group (fsGroup is a supplementary group of the process)
    // or through "other"
    const mode = vol?.secret?.defaultMode ?? 0o644, sc = pod.securityContext || {};
    const user = c.securityContext?.runAsUser ?? sc.runAsUser;
    say(user === 0 || (mode & 0o004) || (sc.fsGroup !== undefined && (mode & 0o040)),
      `the tokens file (mode ${mode.toString(8)}, group ${sc.fsGroup ?? 'root'}) is readable by uid ${user}`);
  }
  // components combine freely: each listed one left its mark, each unlisted
  // one none (a component that patched another's part would show here)
  const marks = {
    auth: () => !!cmd.SBOMD_TOKENS_FILE && (pod.volumes || []).some((v) => v.secret?.secretName === 'sbomd-tokens'),
    lookups: () => isOn(cmd.SBOMD_LOOKUPS) && !!named('NetworkPolicy', 'sbomd-egress-lookups'),
    vulns: () => isOn(cmd.SBOMD_VULNERABILITIES) && !!named('NetworkPolicy', 'sbomd-egress-vulns'),
    redis: () => !!cmd.SBOMD_CACHE_URL && !!named('Deployment', 'sbomd-redis') && !!named('NetworkPolicy', 'sbomd-egress-redis'),
    monitoring: () => !!named('PodMonitor', 'sbomd') && !!named('NetworkPolicy', 'sbomd-metrics'),
  };
  const traces = {
    auth: () => !!cmd.SBOMD_TOKENS_FILE || (pod.volumes || []).some((v) => v.secret),
    lookups: () => 'SBOMD_LOOKUPS' in cmd || !!named('NetworkPolicy', 'sbomd-egress-lookups'),
    vulns: () => 'SBOMD_VULNERABILITIES' in cmd || !!named('NetworkPolicy', 'sbomd-egress-vulns'),
    redis: () => 'SBOMD_CACHE_URL' in cmd || !!named('Deployment', 'sbomd-redis'),
    monitoring: () => !!all.PodMonitor || !!named('NetworkPolicy', 'sbomd-metrics'),
  };
  const present = Object.keys(marks).filter((k) => has(k) ? marks[k]() : traces[k]());
  say(Object.keys(marks).every((k) => has(k) ? marks[k]() : !traces[k]()),
    `components [${[...comps].join(',')}]: all there, no other (${present.join(',') || 'none'})`);
  // one object per kind and name: two components adding the same object
  // would be a conflict kustomize reports only for some kinds
  const ids = docs.map((o) => `${o.kind}/${o.metadata?.name}`);
  ok(new Set(ids).size === ids.length, `no object twice (${ids.length} objects)`);
  // a config change rolls the pods: the generated ConfigMap's name carries
  // the content hash, and the Deployment refers to that name
  const refs = [...(c.envFrom || []).map((e) => e.configMapRef?.name), ...(pod.volumes || []).map((v) => v.configMap?.name)].filter(Boolean);
  const cms = (all.ConfigMap || []).map((o) => o.metadata.name);
  say(cms.length === 1 && /^sbomd-[a-z0-9]{10}$/.test(cms[0]) && refs.length > 0 && refs.every((r) => r === cms[0]),
    `ConfigMap ${cms.join(',')} is hash-suffixed and the Deployment refers to it (${refs.join(',')})`);
  // ports: the API port open to all (the Service's target), the probe /
  // metrics port only from the namespace monitoring, and only with the
  // monitoring component; policies add up, so every rule that selects the
  // pods and covers the port counts
  const probeNum = Number(probePort?.containerPort), apiNum = Number(c.ports?.find((p) => p.name === 'http')?.containerPort);
  const ingressNp = sbomdNp.filter((n) => (n.spec.policyTypes || []).includes('Ingress'));
  const rules = ingressNp.flatMap((n) => (n.spec.ingress || []).map((r) => ({ ...r, np: n.metadata.name })));
  const covers = (r, num, name) => !r.ports || r.ports.length === 0 || r.ports.some((p) => Number(p.port) === num || p.port === name);
  const fromAll = (r) => !r.from || r.from.length === 0;
  const monNs = (f) => f.namespaceSelector && !f.ipBlock && Object.keys(f.namespaceSelector.matchLabels || {}).length === 1
    && f.namespaceSelector.matchLabels['kubernetes.io/metadata.name'] === 'monitoring' && !(f.namespaceSelector.matchExpressions || []).length;
  ok(ingressNp.length > 0, 'a NetworkPolicy isolates the pods for ingress');
  say(rules.some((r) => covers(r, apiNum, 'http') && fromAll(r)), `the API port ${apiNum} is open to all`);
  const metricsRules = rules.filter((r) => covers(r, probeNum, 'probe'));
  if (has('monitoring')) {
    say(metricsRules.length > 0 && metricsRules.every((r) => !fromAll(r) && r.from.every(monNs)),
      `the metrics port ${probeNum} is reachable only from the namespace monitoring (${metricsRules.map((r) => r.np).join(',')})`);
    const pm = named('PodMonitor', 'sbomd');
    const ep = pm?.spec?.podMetricsEndpoints || [];
    ok(pm && Object.entries(pm.spec.selector?.matchLabels || {}).every(([k, v]) => d.spec.template.metadata.labels[k] === v)
      && Object.keys(pm.spec.selector?.matchLabels || {}).length > 0, 'the PodMonitor selects the pods');
    say(ep.length > 0 && ep.every((e) => e.port === 'probe' && (e.path || '/metrics') === '/metrics'),
      `the PodMonitor scrapes /metrics on the port named probe (${probeNum})`);
    // kube-prometheus-stack selects by `release:`; without it the objects
    // are silently ignored there
    const pr = named('PrometheusRule', 'sbomd');
    say(pm?.metadata?.labels?.release && pr?.metadata?.labels?.release === pm.metadata.labels.release,
      `the PodMonitor and the PrometheusRule carry one release label (${pm?.metadata?.labels?.release})`);
  } else {
    say(metricsRules.length === 0, `monitoring off: no rule opens the metrics port ${probeNum} (${metricsRules.map((r) => r.np).join(',') || 'none'})`);
  }
  ok(!(byKind.Service?.spec?.ports || []).some((p) => p.targetPort === 'probe' || Number(p.targetPort) === probeNum),
    'the probe / metrics port stays off the Service');
  const sel = d.spec.selector.matchLabels;
  ok(matches(byKind.Service?.spec?.selector), 'Service selects the pods');
  ok(matches(byKind.PodDisruptionBudget?.spec?.selector?.matchLabels), 'PodDisruptionBudget selects the pods');
  ok(matches(byKind.NetworkPolicy?.spec?.podSelector?.matchLabels), 'NetworkPolicy selects the pods');
  ok(sel && matches(sel), 'Deployment selector matches its template');
}
// deploy/components/redis: the shared cache is wired end to end
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
  // any NetworkPolicy that selects sbomd's pods may open it (policies add up)
  const sbomdLabels = byKind.Deployment?.spec?.template?.metadata?.labels || {};
  const eg = (all.NetworkPolicy || []).filter((n) => Object.entries(n.spec.podSelector?.matchLabels || {}).every(([k, v]) => sbomdLabels[k] === v))
    .flatMap((n) => n.spec.egress || []);
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
