#!/usr/bin/env python3
"""ci-yaml.py FILE MARKER [JOB] - a CI configuration printed in FILE (the
```yaml block after its `<!-- ci setup: MARKER ` comment), read with PyYAML
as GitHub Actions or GitLab CI would read it. Without JOB: the whole
configuration as JSON, for jq to check its shape. With JOB: that job's shell
as one bash script, in the order the CI runs it: GitHub's workflow and job
`env` or GitLab's `variables` exported, then each step's `run` (GitHub;
`uses` steps are actions, not shell) or each `script` line (GitLab), `set -e`
as both CIs stop at the first failing one. Variables in the environment
named in SB_CI_KEEP (space-separated) win over the file's: the service's CI
host name does not resolve outside the CI, so the test points SBOMD at its
own server. GitLab's before_script installs tools the test machine has and
is not run."""
import json
import os
import shlex
import sys

import yaml

path, marker = sys.argv[1], sys.argv[2]
job = sys.argv[3] if len(sys.argv) > 3 else None
lines = open(path, encoding="utf-8").read().split("\n")
start = next(i for i, l in enumerate(lines) if l.startswith(f"<!-- ci setup: {marker} "))
open_at = next(i for i in range(start, len(lines)) if lines[i].startswith("```yaml"))
close_at = next(i for i in range(open_at + 1, len(lines)) if lines[i].startswith("```"))
conf = yaml.safe_load("\n".join(lines[open_at + 1:close_at]))
if job is None:
    json.dump(conf, sys.stdout)
    sys.exit(0)
keep = set(os.environ.get("SB_CI_KEEP", "").split())
out = ["set -eo pipefail"]


def export(env):
    for k, v in (env or {}).items():
        if k not in keep:
            out.append(f"export {k}={shlex.quote(str(v))}")


if "jobs" in conf:  # GitHub Actions
    j = conf["jobs"][job]
    export(conf.get("env"))
    export(j.get("env"))
    for step in j["steps"]:
        if "run" in step:
            out.append(f"# step: {step.get('name', '')}")
            out.append(step["run"].rstrip("\n"))
else:  # GitLab CI
    j = conf[job]
    export(conf.get("variables"))
    export(j.get("variables"))
    for line in j["script"]:
        out.append(line)
print("\n".join(out))
