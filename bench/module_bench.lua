-- bench/module_bench.lua -- this module on a Moving AI map, through its Lua
-- API exactly as a game calls it (find_path, result tables and all).
--
--   lua5.4 bench/module_bench.lua <file.map> <file.map.scen> [stride] [lua-heuristic]
--                                 [algorithm=auto|astar|jps|jps+]
--
-- With algorithm=jps+ the grid's jump table is built before the queries
-- (grid:precompute_jumps(); its CPU time is printed as build_seconds=, not
-- counted in seconds=).
--
-- With "lua-heuristic" the built-in octile heuristic is replaced by the same
-- formula written in Lua the way a careful Lua programmer would (no C calls,
-- astar.DIAGONAL so ties stay exact): one Lua call per generated node.
-- Prints one key=value line like the other baselines:
--   queries= mismatches= expansions= seconds= exp_per_sec= median_us= peak_rss_kb= c_bytes=
-- c_bytes is what C holds for the grid and its search state (grid:memory()).
local astar = require("astar")

local map_path, scen_path = arg[1], arg[2]
local stride = math.tointeger(tonumber(arg[3] or "1"))
local lua_h, algorithm = false, nil
for i = 4, #arg do
  if arg[i] == "lua-heuristic" then lua_h = true end
  algorithm = arg[i]:match("^algorithm=([%a+]+)$") or algorithm
end
if not (map_path and scen_path and stride and stride >= 1) then
  io.stderr:write("usage: lua5.4 bench/module_bench.lua <map> <scen> [stride] [lua-heuristic] "
    .. "[algorithm=auto|astar|jps|jps+]\n")
  os.exit(2)
end

local grid = astar.maps.load(map_path)
local scen = astar.maps.scenarios(scen_path)
local build_seconds = 0
if algorithm == "jps+" then
  local t0 = os.clock()
  grid:precompute_jumps()
  build_seconds = os.clock() - t0
end

local DIAG_EXTRA = astar.DIAGONAL - 1
local opts = { algorithm = algorithm }
if lua_h then
  opts.heuristic = function(x, y, gx, gy)
    local dx, dy = x - gx, y - gy
    if dx < 0 then dx = -dx end
    if dy < 0 then dy = -dy end
    if dx < dy then return DIAG_EXTRA * dx + dy end
    return DIAG_EXTRA * dy + dx
  end
end

local clock = os.clock
local times, n, bad, expanded, total = {}, 0, 0, 0, 0
for i = 1, #scen, stride do
  local s = scen[i]
  local t0 = clock()
  local p = grid:find_path(s.start[1], s.start[2], s.goal[1], s.goal[2], opts)
  local dt = clock() - t0
  n = n + 1
  times[n] = dt
  total = total + dt
  if not p or math.abs(p.cost - s.optimal) > s.tolerance then
    bad = bad + 1
    io.stderr:write(("mismatch: row %d cost %s optimal %s\n"):format(i, p and p.cost, s.optimal))
  else
    expanded = expanded + p.expanded
  end
end
table.sort(times)

local function peak_rss_kb()
  local f = io.open("/proc/self/status", "r")
  if not f then return -1 end
  local text = f:read("*a")
  f:close()
  return tonumber(text:match("VmHWM:%s*(%d+)")) or -1
end

local us = {}
for i = 1, n do us[i] = ("%.1f"):format(times[i] * 1e6) end
print(("queries=%d mismatches=%d expansions=%d seconds=%.6f exp_per_sec=%.0f median_us=%.3f "
  .. "peak_rss_kb=%d c_bytes=%d build_seconds=%.6f times_us=%s"):format(n, bad, expanded, total,
    expanded / total, (times[(n + 1) // 2] or 0) * 1e6, peak_rss_kb(), grid:memory(), build_seconds,
    table.concat(us, ",")))
os.exit(bad == 0 and 0 or 1)
