# count-pixi.awk - an independent count of the packages one environment x
# platform of a pixi.lock holds, from the text alone (no YAML library):
#   awk -v env=default -v plat=linux-64 -f count-pixi.awk pixi.lock
# v4+: distinct "- conda:/pypi:/conda_source:" lines under
#      environments.<env>.packages.<plat>; v1-v3: "platform: <plat>" entries.
function indent(s) { match(s, /^ */); return RLENGTH }
/^version:/ { version = $2 }
/^[^ #-]/ { top = $1; sub(/:.*/, "", top); in_env = 0; in_pk = 0; in_plat = 0 }
top == "environments" {
    ind = indent($0)
    if (ind == 2 && $0 ~ /:[ ]*$/) { e = $1; sub(/:$/, "", e); gsub(/"/, "", e); in_env = (e == env); in_pk = 0; in_plat = 0; next }
    if (in_env && $0 ~ /^ +packages:/) { in_pk = 1; pk_ind = ind; next }
    if (in_env && in_pk && ind <= pk_ind && $0 !~ /^ *- /) { in_pk = 0; in_plat = 0 }
    if (in_pk && $0 ~ /^ +[^ -][^:]*:[ ]*$/ && ind > pk_ind) { p = $1; sub(/:$/, "", p); gsub(/"/, "", p); in_plat = (p == plat); next }
    if (in_pk && in_plat && $0 ~ /^ *- (conda|pypi|conda_source):/) { line = $0; sub(/^ *- /, "", line); seen4[line] = 1 }
}
(top == "package") && ($0 ~ /^ *(- )?platform: /) {
    v = $0; sub(/^ *(- )?platform: */, "", v); gsub(/["']/, "", v); if (v == plat) n1++
}
END {
    n = 0; for (k in seen4) n++
    print (n > 0 ? n : n1 + 0)
}
