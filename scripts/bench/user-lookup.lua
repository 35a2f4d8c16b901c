-- wrk script: GET /v3/users/{id} for a random one of the seeded users, as the admin.
local token = os.getenv("PARLEY_API_TOKEN")
local users = tonumber(os.getenv("BENCH_USERS") or "10000")
math.randomseed(os.time())

request = function()
  return wrk.format("GET", "/v3/users/" .. math.random(1, users), { ["Api-Token"] = token })
end
