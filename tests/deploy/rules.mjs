// rules.mjs RENDERED OUT_RULES OUT_EXPRS [DASHBOARD] - the PrometheusRule of
// a rendered manifest written as a plain Prometheus rules file (its spec:
// what `promtool check rules` reads), and every PromQL expression of the
// rules and of the Grafana dashboard, one per line, for run.sh to check
// the metric names they use against a live sbomd's /metrics.
import fs from 'node:fs';
import YAML from 'yaml';

const docs = YAML.parseAllDocuments(fs.readFileSync(process.argv[2], 'utf8')).map((d) => d.toJSON()).filter(Boolean);
const rule = docs.find((o) => o.kind === 'PrometheusRule');
if (!rule) { console.error('no PrometheusRule rendered'); process.exit(1); }
fs.writeFileSync(process.argv[3], YAML.stringify({ groups: rule.spec.groups }));
const exprs = rule.spec.groups.flatMap((g) => g.rules.map((r) => r.expr.replace(/\s+/g, ' ').trim()));
if (process.argv[5]) {
  const dash = JSON.parse(fs.readFileSync(process.argv[5], 'utf8'));
  for (const p of dash.panels || []) for (const t of p.targets || []) exprs.push(t.expr.replace(/\s+/g, ' ').trim());
}
fs.writeFileSync(process.argv[4], exprs.join('\n') + '\n');
