-- bench/open.lua -- jump point search on open maps against A*'s repeat:
-- short queries on an empty N x N grid (default 4096), in sight of the goal
-- and around a wall, the default (jump point search) beside
-- algorithm = "astar", CPU time per query (os.clock), same run.
--
--   lua5.4 bench/open.lua [N]
--
-- Issue 19's target: the 60-cell query at most 2x the A* repeat.
local astar = require("astar")
local N = tonumber(arg[1] or 4096)
local g = astar.grid(N, N)
local c = N // 2
local clock = os.clock

local function time(opts, sx, sy, gx, gy, n)
  local p = assert(g:find_path(sx, sy, gx, gy, opts))
  local t0 = clock()
  for _ = 1, n do g:find_path(sx, sy, gx, gy, opts) end
  return (clock() - t0) / n * 1e6, p.expanded, p.cost
end

print(("| %d x %d, query | astar us (expanded) | default us (expanded) | default / astar |"):format(N, N))
print("|---|---:|---:|---:|")
local function row(name, sx, sy, gx, gy)
  local a, ae, ac = time({ algorithm = "astar" }, sx, sy, gx, gy, 400)
  local j, je, jc = time({}, sx, sy, gx, gy, 400)
  assert(ac == jc, "costs differ")
  print(("| %s | %.1f (%d) | %.1f (%d) | %.2f |"):format(name, a, ae, j, je, j / a))
end
row("60 cells, goal in sight", c, c, c + 60, c + 30)
row("60 cells, straight", c, c, c + 60, c)
g:set_blocked(c + 15, c + 15, true)
row("60 cells, one blocked cell on the way", c, c, c + 60, c + 30)
for y = c + 5, c + 25 do g:set_blocked(c + 15, y, true) end
row("60 cells, a 21-cell wall on the way", c, c, c + 60, c + 30)
