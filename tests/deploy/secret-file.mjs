// secret-file.mjs FILE - from a rendered manifest with the auth component,
// what the kubelet needs to write the tokens Secret and start the
// container: "UID GID FSGROUP MODE MOUNTPATH TOKENSFILE" on one line
// (FSGROUP "-" when the pod sets none; MODE in octal). run.sh then writes
// the file the way the kubelet does and starts sbomd as that user, because
// no schema can tell whether uid 10001 may read a 0440 file.
import fs from 'node:fs';
import YAML from 'yaml';

const docs = YAML.parseAllDocuments(fs.readFileSync(process.argv[2], 'utf8')).map((d) => d.toJSON()).filter(Boolean);
const d = docs.find((o) => o.kind === 'Deployment' && o.metadata?.name === 'sbomd');
const pod = d.spec.template.spec, c = pod.containers[0];
const cmName = (c.envFrom || []).map((e) => e.configMapRef?.name).find(Boolean);
const cm = docs.find((o) => o.kind === 'ConfigMap' && o.metadata?.name === cmName)?.data || {};
const tf = cm.SBOMD_TOKENS_FILE;
const mount = c.volumeMounts.find((m) => tf.startsWith(m.mountPath + '/'));
const vol = pod.volumes.find((v) => v.name === mount.name);
const psc = pod.securityContext || {}, csc = c.securityContext || {};
// the container's own securityContext wins over the pod's
const uid = csc.runAsUser ?? psc.runAsUser ?? 0, gid = csc.runAsGroup ?? psc.runAsGroup ?? 0;
// the API's default for a Secret volume is 0644
const mode = vol.secret.defaultMode ?? 0o644;
console.log([uid, gid, psc.fsGroup ?? '-', mode.toString(8), mount.mountPath, tf].join(' '));
