-- any_angle against the visibility-graph optimum on many small random grids,
-- under every diagonal rule: the worst path at most 5% longer, the mean at
-- most 1% (issue 19.4).  Taut paths and the lane's Theta* alone missed it
-- (200 seeds of 16 x 16 grids: 9.6% worst under "no_corner_cutting", 26%
-- under "never", whose cell paths are 4-connected and may run far from the
-- any-angle optimum); src/anyexact.c's search over corner cells meets it.
--
-- The oracle (spec/visgraph.lua, shared with spec/anyangle_spec.lua): a
-- Dijkstra over the visibility graph of every open cell.  Passage under the strict rules ("never",
-- "no_corner_cutting") is a segment that meets no blocked cell's closed
-- square, an exact separating-axis test in doubled integer coordinates
-- (spec/anyangle_spec.lua's, independent of the core); under "one_obstacle"
-- and "always" it is line_of_sight, whose corner rule is those rules' (a
-- corner shut only by two blocked cells beside it, never on "always"), and
-- which los_spec checks on its own.
--
-- Everyday: 50 seeds a rule (the strict rules fail on the code before the
-- exact search); #system: 200 seeds a rule and two more densities.
local astar = require("astar")
local helpers = require("helpers")
local rng = helpers.rng

local oracle = require("visgraph")

local huge = math.huge

-- Every rule over seeds 1..nseeds of size x size grids with `density`
-- blocked, 16 goals from (1, 1) a grid: returns the number of paths, the
-- mean and worst ratio over the optimum, and where the worst was.
local function sweep(rule, nseeds, size, density)
  local strict = rule == "never" or rule == "no_corner_cutting"
  local n, sum, worst, where = 0, 0, 1, ""
  for seed = 1, nseeds do
    local r = rng(seed)
    local g = astar.grid(size, size, { diagonal = rule })
    for y = 1, size do
      for x = 1, size do
        if r() < density then g:set_blocked(x, y, true) end
      end
    end
    g:set_blocked(1, 1, false)
    local blocked = {}
    for y = 1, size do
      for x = 1, size do
        if g:is_blocked(x, y) then blocked[#blocked + 1] = { x, y } end
      end
    end
    local dist = oracle(g, blocked, 1, 1, nil, not strict)
    local pick = rng(1000 + seed)
    for _ = 1, 16 do
      local gx, gy = pick(1, size), pick(1, size)
      local exact = dist[gy * 1000 + gx]
      if exact and exact < huge and exact > 0 then
        local p = assert(g:find_path(1, 1, gx, gy, { any_angle = true }))
        local what = ("%s, seed %d, (1, 1) to (%d, %d)"):format(rule, seed, gx, gy)
        -- a path through centres with passage: never shorter than the optimum
        assert.is_true(p.length >= exact - 1e-9, what .. (": %s < %s"):format(p.length, exact))
        for i = 2, #p.points do
          local a, b = p.points[i - 1], p.points[i]
          assert.is_true(g:line_of_sight(a[1], a[2], b[1], b[2]), what)
        end
        local ratio = p.length / exact
        n, sum = n + 1, sum + ratio
        if ratio > worst then worst, where = ratio, what end
      end
    end
  end
  return n, sum / n, worst, where
end

local function check(rule, nseeds, size, density)
  local n, mean, worst, where = sweep(rule, nseeds, size, density)
  io.write(("\n  any_angle, %s, %d seeds of %dx%d at %.2f: %d paths, mean %.4f%%, worst %.4f%% (%s)\n")
    :format(rule, nseeds, size, size, density, n, (mean - 1) * 100, (worst - 1) * 100, where))
  assert.is_true(n >= nseeds * 6, ("%d paths"):format(n)) -- a 30% map leaves fewer goals reachable
  assert.is_true(mean <= 1.01, ("mean ratio %.5f"):format(mean))
  assert.is_true(worst <= 1.05, ("worst ratio %.5f at %s"):format(worst, where))
end

local RULES = { "never", "no_corner_cutting", "one_obstacle", "always" }

describe("any_angle on small random grids, against the visibility graph", function()
  for _, rule in ipairs(RULES) do
    it(("is within 5%% at worst and 1%% on average under %q (50 seeds of 16x16)"):format(rule), function()
      check(rule, 50, 16, 0.2)
    end)
  end
end)

describe("any_angle on small random grids, against the visibility graph #system", function()
  for _, rule in ipairs(RULES) do
    it(("is within 5%% at worst and 1%% on average under %q (200 seeds, three densities)"):format(rule), function()
      check(rule, 200, 16, 0.2)
      check(rule, 200, 16, 0.1)
      check(rule, 200, 16, 0.3)
    end)
  end
end)
