-- bench/lua_heuristic_warm.lua -- bench/lua_heuristic.lua's queries (the
-- game or street rows of bench/plan.lua) repeated in one process, with the
-- built-in octile or with the octile written in Lua: the whole loop's CPU
-- time (os.clock), no clock per query, every answer checked once.
--
--   lua5.4 bench/lua_heuristic_warm.lua builtin|lua [repeats] [game|street]
--
-- Prints "mode family seconds calls/query generated/query": run both modes,
-- alternating, and compare (lua - builtin) / (repeats * queries * calls) for
-- the cost of one call over the built-in estimate.
local astar = require("astar")
local MAPS = os.getenv("MAPS") or "../shared/maps"
local PLAN = dofile("bench/plan.lua")
local util = dofile(((arg and arg[0] or ""):match("^(.*)[/\\]") or ".") .. "/util.lua")
local mode, reps, fam = arg[1] or "lua", tonumber(arg[2] or "10"), arg[3] or "game"
local DIAG_EXTRA = astar.DIAGONAL - 1
local calls = 0
local function octile(x, y, gx, gy)
  calls = calls + 1
  local dx, dy = x - gx, y - gy
  if dx < 0 then dx = -dx end
  if dy < 0 then dy = -dy end
  if dx < dy then return DIAG_EXTRA * dx + dy end
  return DIAG_EXTRA * dy + dx
end
local queries = util.family_queries(astar, PLAN.rows, fam, MAPS)
local opts = mode == "lua" and { heuristic = octile } or {}
local gen = 0
local t0 = os.clock()
for r = 1, reps do
  for _, q in ipairs(queries) do
    local s = q[2]
    local p = q[1]:find_path(s.start[1], s.start[2], s.goal[1], s.goal[2], opts)
    if r == 1 then
      assert(p and math.abs(p.cost - s.optimal) <= s.tolerance, "wrong answer")
      gen = gen + p.generated
    end
  end
end
print(mode, fam, os.clock() - t0, calls / reps / #queries, gen / #queries)
