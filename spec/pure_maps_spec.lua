-- The pure-Lua backend on the Moving AI benchmark (../shared/maps): its
-- default search (jump point search on these uniform maps) must find the
-- optimal length of every row, whichever backend require("astar") serves:
-- the grids here are the pure backend's, copied cell by cell from the map
-- astar.maps loaded.  What runs where (the cost: CPU time on a quiet machine):
--   #pure     every 1999th row of every map (22 rows, about 4 s on Lua 5.4, a
--             third of it loading the maps and copying them cell by cell):
--             make test and make test-pure
--   #system   on LuaJIT every row (29,649: 3-4 minutes); on the other
--             interpreters every 10th (2,965 rows: about 1 minute on Lua
--             5.4, where every row would take 12, too much for .ci/run's
--             make test-system): make test-system [LUA=luajit]
local maps = require("astar.maps")
local helpers = require("helpers")
local pure = require("astar.pure.core")

local function pure_grid(g)
  local w, h = g:size()
  local p = pure.grid(w, h)
  for y = 1, h do
    for x = 1, w do
      if g:is_blocked(x, y) then p:set_blocked(x, y, true) end
    end
  end
  return p
end

-- every step a neighbour the rule allows, the cells open, the ends right
local function check_walk(g, p, sx, sy, gx, gy)
  local w = g:size()
  local function xy(id) return (id - 1) % w + 1, math.floor((id - 1) / w) + 1 end
  local x0, y0 = xy(p.nodes[1])
  assert(x0 == sx and y0 == sy, "the path does not start at the start")
  for i = 2, #p.nodes do
    local x1, y1 = xy(p.nodes[i])
    local dx, dy = x1 - x0, y1 - y0
    assert(math.abs(dx) <= 1 and math.abs(dy) <= 1 and dx * dx + dy * dy > 0, "not a neighbour")
    assert(not g:is_blocked(x1, y1), "a blocked cell")
    if dx ~= 0 and dy ~= 0 then
      assert(not g:is_blocked(x0 + dx, y0) and not g:is_blocked(x0, y0 + dy), "a cut corner")
    end
    x0, y0 = x1, y1
  end
  assert(x0 == gx and y0 == gy, "the path does not end at the goal")
end

local function sweep(step, check_cells)
  return helpers.moving_ai_sweep(function(path) return pure_grid(maps.load(path)) end, step,
    check_cells and check_walk)
end

describe("the pure-Lua backend on the Moving AI maps", function()
  it("every 1999th row of every map: optimal, every path a legal walk #pure", function()
    assert.equal(22, sweep(1999, true))
  end)

  if jit then
    it("all 29,649 rows of ../shared/maps are optimal (LuaJIT) #system", function()
      assert.equal(29649, sweep(1, false))
    end)
  else
    it("every 10th row of ../shared/maps is optimal (every row: on LuaJIT) #system", function()
      assert.equal(2965, sweep(10, false))
    end)
  end
end)
