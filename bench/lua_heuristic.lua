-- bench/lua_heuristic.lua -- what a heuristic written in Lua costs beside
-- the built-in one, under the default search (jump point search on these
-- maps): the call's overhead, measured with a Lua heuristic that returns
-- the octile distance (the built-in's value, so both expand the same nodes).
--
--   lua5.4 bench/lua_heuristic.lua [rounds]      (LUA_PATH/LUA_CPATH set)
--
-- The game and street rows of bench/plan.lua.  In each of `rounds`
-- (default 5) rounds every query runs with the built-in octile heuristic
-- and with the Lua one, the order alternating by round, timed by CPU time
-- (os.clock).  Per family: the total over the queries and the median per
-- query of each (medians over the rounds), and their ratios Lua / built-in;
-- every answer is checked against the scenario's optimum.
local astar = require("astar")
local MAPS = os.getenv("MAPS") or "../shared/maps"
local ROUNDS = tonumber(arg[1] or "5")
local PLAN = dofile("bench/plan.lua")

local DIAG_EXTRA = astar.DIAGONAL - 1
local function octile(x, y, gx, gy)
  local dx, dy = x - gx, y - gy
  if dx < 0 then dx = -dx end
  if dy < 0 then dy = -dy end
  if dx < dy then return DIAG_EXTRA * dx + dy end
  return DIAG_EXTRA * dy + dx
end

local util = dofile(((arg and arg[0] or ""):match("^(.*)[/\\]") or ".") .. "/util.lua")
local median = util.median

local f = io.open(MAPS .. "/README.md")
if not f then
  print(("bench: %s is absent: no Moving AI maps, nothing to measure"):format(MAPS))
  os.exit(0)
end
f:close()

local clock = os.clock
local modes = { builtin = {}, lua = { heuristic = octile } }
print(("Lua heuristic (octile in Lua) vs the built-in octile, default search, %d rounds, CPU time"):format(ROUNDS))
print("| family | queries | built-in s | Lua s | total Lua/built-in | built-in median µs | Lua median µs "
  .. "| median Lua/built-in |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for _, family in ipairs({ "game", "street" }) do
  local queries = util.family_queries(astar, PLAN.rows, family, MAPS)
  local total = { builtin = {}, lua = {} }
  local med = { builtin = {}, lua = {} }
  for r = 1, ROUNDS do
    local order = r % 2 == 1 and { "builtin", "lua" } or { "lua", "builtin" }
    for _, m in ipairs(order) do
      local opts, times, sum = modes[m], {}, 0
      for i, q in ipairs(queries) do
        local g, s = q[1], q[2]
        local t0 = clock()
        local p = g:find_path(s.start[1], s.start[2], s.goal[1], s.goal[2], opts)
        local dt = clock() - t0
        assert(p and math.abs(p.cost - s.optimal) <= s.tolerance, m .. ": wrong answer")
        times[i] = dt
        sum = sum + dt
      end
      total[m][r] = sum
      med[m][r] = median(times)
    end
  end
  local tb, tl = median(total.builtin), median(total.lua)
  local mb, ml = median(med.builtin), median(med.lua)
  print(("| %s | %d | %.3f | %.3f | %.2f | %.1f | %.1f | %.2f |"):format(family, #queries, tb, tl, tl / tb,
    mb * 1e6, ml * 1e6, ml / mb))
end
