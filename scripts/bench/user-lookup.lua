-- wrk script: GET /v3/users/{id} for a random one of the seeded users, as the admin.
-- The requests are formatted once, up front, so that the load generator spends its share of
-- the two cores on sending and reading rather than on building strings.
local token = os.getenv("PARLEY_API_TOKEN")
local users = tonumber(os.getenv("BENCH_USERS") or "10000")
local requests = {}
math.randomseed(os.time())

init = function(args)
  for n = 1, users do
    requests[n] = wrk.format("GET", "/v3/users/" .. n, { ["Api-Token"] = token })
  end
end

request = function()
  return requests[math.random(1, users)]
end
