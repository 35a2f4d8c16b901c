-- wrk script: the attacker of scripts/bench/search-fairness, whose session token is
-- BENCH_SESSION: searches for a word every one of their messages holds, 100 at a time, by score
-- and by time in turn (wrk's "Non-2xx" line counts those refused 429 for holding too many).
local session = os.getenv("BENCH_SESSION")
local requests = {}

init = function(args)
  requests[1] = wrk.format("GET", "/v3/search/messages?query=people&limit=100&sort_field=score", { ["Session-Token"] = session })
  requests[2] = wrk.format("GET", "/v3/search/messages?query=people&limit=100&sort_field=ts", { ["Session-Token"] = session })
end

local n = 0
request = function()
  n = n + 1
  return requests[n % 2 + 1]
end
