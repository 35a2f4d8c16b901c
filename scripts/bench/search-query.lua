-- wrk script: GET /v3/search/messages for BENCH_QUERY (percent-encoded) as the session user
-- whose token is BENCH_SESSION (a member of 1,000 channels, see scripts/bench/conversations).
local query = os.getenv("BENCH_QUERY")
local session = os.getenv("BENCH_SESSION")
request = function()
  return wrk.format("GET", "/v3/search/messages?limit=20&query=" .. query, { ["Session-Token"] = session })
end
