# order.awk — the load order of the sql/ files, from their headers (run by the Makefile).
# Usage: LC_ALL=C awk -f sql/order.awk sql/layers.txt sql/<area>/<name>.sql ... > ORDER
# Prints the file paths, one a line: a file comes after every module it requires
# (-- requires: a.b, c.d); among the files whose requires are all printed, the one of
# the lowest layer (sql/layers.txt), then the lowest module name, comes first. So the
# order depends only on the headers, never on the command line's order. Fails (exit 1,
# message on stderr) on a missing header, an unknown area or module, or a cycle.
# The full rules (what a file may read) are checked by tests/build/check_sql_graph.py.
function fail(msg) { print "order.awk: " msg > "/dev/stderr"; err = 1; exit 1 }
FNR == 1 { nfile++ }
nfile == 1 {
    sub(/#.*/, "")
    if (NF == 0) next
    if (NF != 2) fail(FILENAME ":" FNR ": expected 'LAYER AREA'")
    layer[$2] = $1 + 0
    next
}
FNR == 1 { path = FILENAME; inhead = 1; paths[++n] = path }
inhead && !/^--/ { inhead = 0 }
inhead && /^--[ \t]*module:/ {
    m = $0; sub(/^--[ \t]*module:[ \t]*/, "", m); sub(/[ \t]+$/, "", m)
    if (m in file) fail(path ": module " m " is also " file[m])
    file[m] = path; mod[path] = m
    area = m; sub(/\..*$/, "", area)
    if (!(area in layer)) fail(path ": area " area " has no layer in sql/layers.txt")
    lay[m] = layer[area]
}
inhead && /^--[ \t]*requires:/ {
    r = $0; sub(/^--[ \t]*requires:[ \t]*/, "", r)
    k = split(r, parts, /[ \t]*,[ \t]*/)
    for (i = 1; i <= k; i++) {
        gsub(/^[ \t]+|[ \t]+$/, "", parts[i])
        if (parts[i] != "") reqs[path] = reqs[path] " " parts[i]
    }
}
END {
    if (err) exit 1
    for (i = 1; i <= n; i++) if (!(paths[i] in mod)) fail(paths[i] ": no '-- module:' header")
    for (i = 1; i <= n; i++) {
        m = mod[paths[i]]
        k = split(reqs[paths[i]], rq, " ")
        need[m] = 0
        for (j = 1; j <= k; j++) {
            if (!(rq[j] in file)) fail(paths[i] ": requires " rq[j] ", which no file declares")
            need[m]++
            users[rq[j]] = users[rq[j]] " " m
        }
    }
    for (done = 0; done < n; done++) {
        best = ""
        for (m in need) {
            if (need[m] != 0) continue
            if (best == "" || lay[m] < lay[best] || (lay[m] == lay[best] && m < best)) best = m
        }
        if (best == "") {
            left = ""
            for (m in need) left = left " " m
            fail("the requires form a cycle among:" left)
        }
        print file[best]
        delete need[best]
        k = split(users[best], us, " ")
        for (j = 1; j <= k; j++) need[us[j]]--
    }
}
