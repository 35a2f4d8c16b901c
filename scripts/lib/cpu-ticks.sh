# CPU accounting for the benchmarks, from /proc (sourced by scripts/bench/*).
hz="$(getconf CLK_TCK)"
# A process's CPU ticks (user + system).
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# PostgreSQL's CPU ticks (postmaster pid $1): the postmaster, its children that have exited
# (reaped into its cumulative times) and the live ones (backends, workers).
pg_ticks() {
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v pm="$1" \
    '{ pid = $1; sub(/^.*\) /, ""); if (pid == pm || $2 == pm) t += $12 + $13 + $14 + $15 } END { print t + 0 }'
}
# All cores' busy ticks (user nice system irq softirq steal).
busy_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat; }
