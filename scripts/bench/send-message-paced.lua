-- wrk script: the sends of send-message.lua, paced to about BENCH_RATE requests/s in total
-- across BENCH_CONNECTIONS connections. wrk waits delay() before each request, and the response
-- time adds to it, so the delay is shortened by BENCH_LATENCY_MS (the expected response time);
-- the report gives the rate actually reached (scripts/bench/messages calibrates BENCH_LATENCY_MS). A late response delays its connection's next
-- request, so this understates queueing a little.
dofile("scripts/bench/send-message.lua")
local rate = tonumber(os.getenv("BENCH_RATE") or "1000")
local connections = tonumber(os.getenv("BENCH_CONNECTIONS") or "32")
local latency = tonumber(os.getenv("BENCH_LATENCY_MS") or "9")

delay = function()
  return math.max(0, 1000 * connections / rate - latency)
end
