-- bench/fixed_cost.lua -- find_path's fixed cost through Lua: a loop of
-- find_path calls on a 64 x 64 open grid that ask almost nothing of the
-- search, per call in microseconds of CPU time (os.clock):
--   adjacent   (10, 10) -> (11, 10)
--   same       (10, 10) -> (10, 10), start == goal
--   adj+opts   adjacent, with an empty options table
--
--   lua5.4 bench/fixed_cost.lua [calls]      (default 200000; LUA_PATH and
--                                            LUA_CPATH as for the other benches)
--
-- To compare two builds, run it alternately with each build's LUA_CPATH
-- and compare the ratios of the same run (the machine is shared).
local astar = require("astar")
local N = tonumber(arg[1] or "200000")
local g = astar.grid(64, 64)
local clock = os.clock
local function run(x2, y2, opts)
  local t0 = clock()
  for _ = 1, N do g:find_path(10, 10, x2, y2, opts) end
  return (clock() - t0) / N * 1e6
end
print(("adjacent %.3f  same %.3f  adj+opts %.3f"):format(run(11, 10), run(10, 10), run(11, 10, {})))
