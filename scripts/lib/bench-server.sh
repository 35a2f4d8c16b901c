# The server and load helpers the benchmarks share (sourced by scripts/bench/*, after dev-env.sh;
# they set PORT and binary first).
. scripts/lib/cpu-ticks.sh
pg_pid="$(head -1 "$(pg_data_dir)/postmaster.pid")"
start_server() {
  "${1:-$binary}" serve &
  server_pid=$!
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT/ready" >/dev/null && break; sleep 0.1; done
}
stop_server() { kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; }
# wrk with CONNECTIONS and SCRIPT for SECONDS: "rate p50 p99 server-us postgres-us wrk-us" (CPU
# per request of the server, PostgreSQL and the rest: wrk).
measure_wrk() {
  local before after out rate
  before="$(cpu_ticks "$server_pid") $(pg_ticks "$pg_pid") $(busy_ticks)"
  out=$(wrk -t2 -c"$1" -d"$3s" --latency -s "$2" "http://127.0.0.1:$PORT")
  after="$(cpu_ticks "$server_pid") $(pg_ticks "$pg_pid") $(busy_ticks)"
  rate=$(echo "$out" | awk '/Requests\/sec/ {print int($2)}')
  echo "$rate $(echo "$out" | awk '$1 == "50%" {print $2}') $(echo "$out" | awk '$1 == "99%" {print $2}')" \
    "$(echo "$before $after" | awk -v hz="$hz" -v n="$((rate * $3))" '{ s = ($4 - $1) / hz; p = ($5 - $2) / hz; b = ($6 - $3) / hz
      printf "%.0f %.0f %.0f", s * 1e6 / n, p * 1e6 / n, (b - s - p) * 1e6 / n }')"
}
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
