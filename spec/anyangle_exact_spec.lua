-- any_angle against the visibility-graph optimum on many small random grids,
-- under every diagonal rule: the worst path at most 5% longer, the mean at
-- most 1% (issue 19.4).  Taut paths and the lane's Theta* alone missed it
-- (200 seeds of 16 x 16 grids: 9.6% worst under "no_corner_cutting", 26%
-- under "never", whose cell paths are 4-connected and may run far from the
-- any-angle optimum); src/anyexact.c's search over corner cells meets it.
--
-- The oracle: a Dijkstra over the visibility graph of every open cell,
-- written here.  Passage under the strict rules ("never",
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

local sqrt, huge, max, min = math.sqrt, math.huge, math.max, math.min

local function touches(ax, ay, bx, by, cx, cy)
  ax, ay, bx, by, cx, cy = 2 * ax, 2 * ay, 2 * bx, 2 * by, 2 * cx, 2 * cy
  if max(ax, bx) < cx - 1 or min(ax, bx) > cx + 1 then return false end
  if max(ay, by) < cy - 1 or min(ay, by) > cy + 1 then return false end
  local nx, ny = ay - by, bx - ax
  local pos, neg = false, false
  for _, d in ipairs({ { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } }) do
    local s = nx * (cx + d[1] - ax) + ny * (cy + d[2] - ay)
    if s >= 0 then pos = true end
    if s <= 0 then neg = true end
  end
  return pos and neg
end

-- The visibility-graph distances from (sx, sy) to every open cell of g,
-- keyed y * 1000 + x.
local function oracle(g, strict, sx, sy)
  local w, h = g:size()
  local open, blocked = {}, {}
  for y = 1, h do
    for x = 1, w do
      if g:is_blocked(x, y) then blocked[#blocked + 1] = { x, y } else open[#open + 1] = { x, y } end
    end
  end
  local function passes(a, b)
    if not g:line_of_sight(a[1], a[2], b[1], b[2]) then return false end
    if not strict then return true end
    local x0, x1, y0, y1 = min(a[1], b[1]), max(a[1], b[1]), min(a[2], b[2]), max(a[2], b[2])
    for _, c in ipairs(blocked) do
      if c[1] >= x0 - 1 and c[1] <= x1 + 1 and c[2] >= y0 - 1 and c[2] <= y1 + 1
        and touches(a[1], a[2], b[1], b[2], c[1], c[2]) then
        return false
      end
    end
    return true
  end
  local dist, done = {}, {}
  for i, c in ipairs(open) do dist[i] = (c[1] == sx and c[2] == sy) and 0 or huge end
  for _ = 1, #open do
    local u, best = nil, huge
    for i = 1, #open do
      if not done[i] and dist[i] < best then u, best = i, dist[i] end
    end
    if not u then break end
    done[u] = true
    local a = open[u]
    for v = 1, #open do
      if not done[v] then
        local b = open[v]
        local d = best + sqrt((a[1] - b[1]) ^ 2 + (a[2] - b[2]) ^ 2)
        if d < dist[v] and passes(a, b) then dist[v] = d end
      end
    end
  end
  local out = {}
  for i, c in ipairs(open) do out[c[2] * 1000 + c[1]] = dist[i] end
  return out
end

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
    local dist = oracle(g, strict, 1, 1)
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
  assert.is_true(n >= nseeds * 8, ("%d paths"):format(n))
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
